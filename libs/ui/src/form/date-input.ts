/**
 * The one way a date picker shows a calendar date: "Tue, Nov 24, 2026", as the product writes dates
 * everywhere (libs/contracts/src/time.ts). The other formats are accepted when typed.
 * Forms keep the value as "YYYY-MM-DD" (WALL_DATE_FORMAT); only the field shows it this way.
 */
export const DATE_INPUT_FORMAT = ['ddd, MMM D, YYYY', 'YYYY-MM-DD', 'M/D/YYYY', 'MMM D, YYYY'];

/** A calendar date as forms and the API keep it. */
export const WALL_DATE_FORMAT = 'YYYY-MM-DD';
