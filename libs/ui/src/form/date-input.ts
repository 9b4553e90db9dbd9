import dayjs, { type PluginFunc } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

/**
 * The one way a date picker shows a calendar date: "Tue, Nov 24, 2026", as the product writes dates
 * everywhere (libs/contracts/src/time.ts). The other formats are accepted when typed.
 * Forms keep the value as "YYYY-MM-DD" (WALL_DATE_FORMAT); only the field shows it this way.
 */
export const DATE_INPUT_FORMAT = ['ddd, MMM D, YYYY', 'YYYY-MM-DD', 'M/D/YYYY', 'MMM D, YYYY'];

/** A calendar date as forms and the API keep it. */
export const WALL_DATE_FORMAT = 'YYYY-MM-DD';

/**
 * dayjs cannot parse a weekday name ("ddd"), so a date typed the way the picker shows it
 * ("Tue, Dec 15, 2026") was refused and the field went back to its last value (issue 25). This
 * plugin parses such a text with the rest of its format: the date decides, the weekday is read
 * only as a prefix. It wraps customParseFormat's parse, so it is installed after it.
 */
export const parseWeekdayPrefix: PluginFunc = (_option, Dayjs) => {
  const proto = Dayjs.prototype as unknown as {
    parse: (cfg: { date: unknown; args: ArrayLike<unknown> }) => void;
  };
  const parse = proto.parse;
  proto.parse = function (cfg) {
    const format = cfg.args?.[1];
    if (typeof cfg.date === 'string' && typeof format === 'string' && format.startsWith('ddd, ')) {
      const rest = /^\s*[A-Za-z]{2,}\.?,?\s+(\S.*)$/.exec(cfg.date)?.[1];
      if (rest) {
        cfg.date = rest;
        cfg.args = [rest, format.slice('ddd, '.length), ...Array.from(cfg.args).slice(2)];
      }
    }
    parse.call(this, cfg);
  };
};

dayjs.extend(customParseFormat);
dayjs.extend(parseWeekdayPrefix);
