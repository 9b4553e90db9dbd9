import { z } from 'zod';

/**
 * The building blocks of every schema that takes input, on the API and in the forms. Text refuses
 * control characters (PostgreSQL cannot store a NUL byte in text, and no field has a use for the
 * others); amounts and counts have an upper bound that fits their `integer` column, so a client's
 * mistake is a 400 with a message, never a database error.
 */

/** The largest value of a PostgreSQL `integer` (int4) column. */
export const INT4_MAX = 2_147_483_647;
/** The largest amount the API takes: $1,000,000.00. With up to 1,000 guests a total still fits an int4 column. */
export const MAX_CENTS = 100_000_000;
/** Pages of a list: far beyond any real list, and (page − 1) × limit stays a safe integer. */
export const MAX_PAGE = 1_000_000;

export const INPUT_MESSAGES = {
  controlCharacters: 'Text cannot contain control characters such as NUL.',
  amountTooLarge: 'Amounts can be at most $1,000,000.00.',
  numberTooLarge: (max: number) => `Enter a number no larger than ${max.toLocaleString('en-US')}.`,
} as const;

/** C0 controls (U+0000 to U+001F) and DEL. Matching control characters is the point of these patterns. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** The same without tab, line feed and carriage return, which multi-line text keeps. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const hasControlCharacters = (text: string, options: { multiline?: boolean } = {}) =>
  (options.multiline ? CONTROL_CHARACTERS_MULTILINE : CONTROL_CHARACTERS).test(text);

/** The text without its control characters, for what is kept but not validated (an upload's file name). */
export const withoutControlCharacters = (text: string) => text.replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), '');

type TextOptions = {
  /** The message when the value is missing or not text. */
  error?: string;
  /** Descriptions, bodies and emails keep line breaks and tabs; every other field refuses all controls. */
  multiline?: boolean;
};

/**
 * Text that can be stored: a string with no control characters (multi-line text keeps \t, \n and
 * \r). Chain `.trim()`, `.min()` and `.max()` as on `z.string()`.
 */
export function safeText(options: TextOptions = {}) {
  const base = options.error ? z.string({ error: options.error }) : z.string();
  return base.refine((v) => !hasControlCharacters(v, options), { message: INPUT_MESSAGES.controlCharacters, abort: true });
}

/** Multi-line text (descriptions, bodies, messages): keeps \t, \n and \r, refuses other controls. */
export const multilineText = (options: Omit<TextOptions, 'multiline'> = {}) => safeText({ ...options, multiline: true });

type NumberOptions = {
  /** The message for a missing, non-numeric or fractional value. */
  error?: string;
  /** The message above the upper bound. */
  tooLarge?: string;
};

/**
 * An amount in integer cents, from 0 to $1,000,000.00. Chain `.positive()` for prices.
 */
export function cents(options: NumberOptions = {}) {
  const base = options.error ? z.number({ error: options.error }) : z.number();
  return base
    .int(options.error)
    .min(0, options.error)
    .max(MAX_CENTS, options.tooLarge ?? INPUT_MESSAGES.amountTooLarge);
}

/**
 * A whole number from `min` to `max` (capacities, guests, minutes, days); `max` must fit an int4
 * column. One message for every way of missing it unless `tooLarge` says otherwise.
 */
export function count(options: NumberOptions & { min: number; max: number }) {
  if (options.max > INT4_MAX) throw new RangeError(`count(): ${options.max} does not fit an integer column`);
  const base = options.error ? z.number({ error: options.error }) : z.number();
  return base
    .int(options.error)
    .min(options.min, options.error)
    .max(options.max, options.tooLarge ?? options.error ?? INPUT_MESSAGES.numberTooLarge(options.max));
}

/** A whole number in a query string ("?page=2"), with the bounds of `count`. */
export function queryCount(options: NumberOptions & { min: number; max: number }) {
  if (options.max > INT4_MAX) throw new RangeError(`queryCount(): ${options.max} does not fit an integer column`);
  const base = options.error ? z.coerce.number({ error: options.error }) : z.coerce.number();
  return base
    .int(options.error)
    .min(options.min, options.error)
    .max(options.max, options.tooLarge ?? options.error ?? INPUT_MESSAGES.numberTooLarge(options.max));
}

/** Whether a field applies, read from the whole object as sent (its toggle, its kind). */
export type AppliesWhen = Record<string, (value: Record<string, unknown>) => boolean>;

/**
 * A field that does not apply is ignored, not validated: before `schema` reads an object, each
 * field of `appliesWhen` whose rule answers false is left out. The value a switched-off field still
 * holds (a reward amount with points off, a renewal interval on a one-time product) can then
 * neither refuse the save nor be stored. The input and output types stay the schema's own.
 */
export function ignoreWhenOff<S extends z.ZodType>(schema: S, appliesWhen: AppliesWhen) {
  return z.preprocess((input: z.input<S>) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const value = input as Record<string, unknown>;
    let kept: Record<string, unknown> | null = null;
    for (const [field, applies] of Object.entries(appliesWhen)) {
      if (field in value && !applies(value)) {
        kept ??= { ...value };
        delete kept[field];
      }
    }
    return kept ?? input;
  }, schema);
}
