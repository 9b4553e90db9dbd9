/** Fixed lists and defaults of the course forms (spec 000 §3, §9; spec 001 §3, §9). */

export const MATERIALS = ['Metal', 'Leather', 'Beverage', 'Ceramics', 'Glass', 'Wood', 'Textiles'] as const;
export type Material = (typeof MATERIALS)[number];

/** category_id of a material: its position in the list, from 1. */
export const CATEGORIES = MATERIALS.map((name, i) => ({ category_id: i + 1, name }));
export const categoryIdOf = (material: Material) => MATERIALS.indexOf(material) + 1;
export const materialOf = (categoryId: number): Material | undefined => MATERIALS[categoryId - 1];

export const LEVELS = ['Beginner', 'Intermediate', 'Advanced'] as const;
export type Level = (typeof LEVELS)[number];

/** volume and pwyw are shown but disabled (spec 000 §3). */
export const PRICE_TYPES = ['standard', 'free', 'volume', 'pwyw'] as const;
export const ENABLED_PRICE_TYPES = ['standard', 'free'] as const;
export type PriceType = (typeof ENABLED_PRICE_TYPES)[number];

export const ACTIVITY_TYPES = ['scheduled', 'appointment'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const FORM_COLLECTION_TYPES = ['order', 'ticket'] as const;
export type FormCollectionType = (typeof FORM_COLLECTION_TYPES)[number];

export const MAX_COURSE_IMAGES = 10;
/** 4.5 MB, in bytes. */
export const MAX_IMAGE_BYTES = 4.5 * 1024 * 1024;
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif'] as const;

/** Scheduling settings of appointment courses (spec 000 §9). */
export const BUFFER_RANGE_MINS = { min: 0, max: 240 } as const;
export const BUFFER_OPTIONS_MINS = [0, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240] as const;
export const MIN_NOTICE_RANGE_MINS = { min: 0, max: 7 * 24 * 60 } as const;
export const MIN_NOTICE_OPTIONS_MINS = [0, 15, 30, 60, 120, 240, 480, 720, 1440, 2880, 4320, 10080] as const;
export const START_TIME_INCREMENTS_MINS = [15, 30, 60] as const;
/** How far ahead a student may book an appointment, in days (issue 22; default 60). */
export const BOOKING_WINDOW_RANGE_DAYS = { min: 1, max: 365 } as const;
export const DEFAULT_BOOKING_WINDOW_DAYS = 60;
export const APPOINTMENT_DURATION_RANGE_MINS = { min: 5, max: 24 * 60 } as const;
export const APPOINTMENT_DURATION_OPTIONS_MINS = [
  5, 10, 15, 20, 30, 45, 60, 75, 90, 120, 150, 180, 240, 300, 360, 480, 600, 720, 1440,
] as const;

/** Default class duration choices: 30 minutes to 8 hours, default 60 (spec 000 §9, spec 001 §9). */
export const DEFAULT_DAILY_MINS_OPTIONS = Array.from({ length: 16 }, (_, i) => (i + 1) * 30);
export const DEFAULT_DAILY_MINS = 60;
export const DEFAULT_DAYS = 1;
export const DEFAULT_DAYS_APART = 1;

/**
 * Default start time choices, every 15 minutes across the day ("HH:mm"). The default is 12:00 PM,
 * at index 48 (spec 000 §9; the legacy list labels it 12:00 AM, we label it truthfully).
 */
export const START_TIME_OPTIONS = Array.from({ length: 96 }, (_, i) => {
  const h = Math.floor(i / 4);
  const m = (i % 4) * 15;
  const value = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  return { value, label: `${hour12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}` };
});
export const DEFAULT_START_TIME_INDEX = 48;
export const DEFAULT_START_TIME = START_TIME_OPTIONS[DEFAULT_START_TIME_INDEX].value;

/** Checkout form builder (spec 000 §3, §5). */
export const FORM_FIELD_TYPES = ['text', 'textarea', 'email', 'phone', 'checkbox', 'radio', 'select', 'name'] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];
export const SINGLE_USE_FIELD_TYPES: readonly FormFieldType[] = ['name', 'email', 'phone'];
export const OPTION_FIELD_TYPES: readonly FormFieldType[] = ['select', 'radio'];
export const DEFAULT_OPTION_VALUE = 'Option 1';
