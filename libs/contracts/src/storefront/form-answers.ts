import { z } from 'zod';
import {
  FORM_COLLECTION_TYPES,
  FORM_FIELD_TYPES,
  type FormCollectionType,
} from '../catalog/catalog-constants';
import { hasControlCharacters, INPUT_MESSAGES } from '../safe-input';
import { answerErrorKey, answerSetCount, MAX_PARTY_SIZE } from './store-rules';

/*
 * A course's checkout form at the store (issue 21): what a buyer sees of the form builder's fields,
 * and the one schema of the answers, built from the form's definition and used by the checkout page
 * before posting and by the server on POST /api/public/{slug}/checkout. Per order: one set of
 * answers; per ticket: one set per seat of the party. A field's error is keyed
 * `answers.<set>.<field id>`, under that field on the page.
 */

export const publicFormFieldSchema = z.object({
  id: z.string(),
  type: z.enum(FORM_FIELD_TYPES),
  label: z.string(),
  placeholder: z.string(),
  description: z
    .string()
    .describe('May hold links as [text](url); only http, https and mailto links are links'),
  required: z.boolean(),
  options: z
    .array(z.object({ id: z.string(), value: z.string() }))
    .describe('The choices of a select or radio'),
});
export type PublicFormField = z.infer<typeof publicFormFieldSchema>;

export const publicCheckoutFormSchema = z.object({
  collection_type: z
    .enum(FORM_COLLECTION_TYPES)
    .describe('order: one set of answers for the order; ticket: one set per seat (party_size sets)'),
  fields: z.array(publicFormFieldSchema),
});
export type PublicCheckoutForm = z.infer<typeof publicCheckoutFormSchema>;

/** The longest answer of each kind of field. */
export const ANSWER_LIMITS = { text: 500, textarea: 5000, email: 254, phone: 40, name: 100 } as const;
/** A form has at most 50 fields (the builder's limit). */
const MAX_FIELDS = 50;

export const FORM_ANSWER_MESSAGES = {
  required: (label: string) => `${label} is required`,
  text: (label: string) => `${label} must be text`,
  tooLong: (label: string, max: number) => `${label} is at most ${max} characters`,
  email: 'Enter a valid email address',
  phone: 'Enter a valid phone number',
  option: (label: string) => `Choose one of the options for ${label}`,
  checkbox: (label: string) => `${label} must be checked or not`,
  name: (label: string) => `Enter both a first and a last name for ${label}`,
  sets: (count: number) =>
    count === 1
      ? 'Send one set of answers to the checkout form'
      : `Send one set of answers for each of the ${count} tickets`,
  noForm: 'This course has no checkout form: send no answers',
} as const;
const M = FORM_ANSWER_MESSAGES;

/** A name field's answer. */
export interface NameAnswer {
  first_name: string;
  last_name: string;
}
export type FormAnswerValue = string | boolean | NameAnswer;
/** One set of answers, by field id. */
export type AnswerSet = Record<string, FormAnswerValue>;

/**
 * What the API takes as `answers` before the course's form is known: sets of answers by field id
 * (text, a checkbox's true or false, an option's id, or a name). The form's own rules are
 * formAnswersSchema's, applied by the checkout.
 */
export const formAnswersInputSchema = z
  .array(
    z
      .record(
        z.string().max(64),
        z.union([
          z.string().max(ANSWER_LIMITS.textarea),
          z.boolean(),
          z.strictObject({
            first_name: z.string().max(ANSWER_LIMITS.name),
            last_name: z.string().max(ANSWER_LIMITS.name),
          }),
          z.null(),
        ]),
      )
      .refine((set) => Object.keys(set).length <= MAX_FIELDS, `At most ${MAX_FIELDS} answers a set`),
  )
  .max(MAX_PARTY_SIZE, M.sets(MAX_PARTY_SIZE))
  .describe(
    "The checkout form's answers by field id: one set when the course's form is collected per order, party_size sets per ticket; none when the course has no form",
  );

const blank = (value: unknown) => (value === undefined || value === null ? '' : value);

/** Text of at most `max` characters, trimmed, without control characters (multi-line keeps line breaks). */
function textAnswer(field: PublicFormField, max: number, multiline = false) {
  return z.preprocess(
    blank,
    z
      .string({ error: M.text(field.label) })
      .refine((v) => !hasControlCharacters(v, { multiline }), {
        message: INPUT_MESSAGES.controlCharacters,
        abort: true,
      })
      .trim()
      .max(max, M.tooLong(field.label, max))
      .refine((v) => !field.required || v.length > 0, M.required(field.label)),
  );
}

const EMAIL = z.email();
/** A phone number: digits with the usual separators, an optional leading +, 7 to 15 digits. */
const PHONE = /^\+?[0-9 ().\-/]+$/;
const isPhone = (v: string) => PHONE.test(v) && /^(?:\D*\d){7,15}\D*$/.test(v);

function nameAnswer(field: PublicFormField) {
  const part = z
    .string({ error: M.name(field.label) })
    .refine((v) => !hasControlCharacters(v), { message: INPUT_MESSAGES.controlCharacters, abort: true })
    .trim()
    .max(ANSWER_LIMITS.name, M.tooLong(field.label, ANSWER_LIMITS.name));
  return z
    .preprocess(
      (v) => blank(v) || { first_name: '', last_name: '' },
      z.object({ first_name: part, last_name: part }, { error: M.name(field.label) }),
    )
    .superRefine((name, ctx) => {
      const given = [name.first_name, name.last_name].filter(Boolean).length;
      if (given === 0 && field.required) ctx.addIssue({ code: 'custom', message: M.required(field.label) });
      if (given === 1) ctx.addIssue({ code: 'custom', message: M.name(field.label) });
    });
}

/** The rule of one field's answer; its output is the answer as stored (trimmed text, '' when none). */
export function fieldAnswerSchema(field: PublicFormField): z.ZodType<FormAnswerValue> {
  switch (field.type) {
    case 'text':
      return textAnswer(field, ANSWER_LIMITS.text);
    case 'textarea':
      return textAnswer(field, ANSWER_LIMITS.textarea, true);
    case 'email':
      return textAnswer(field, ANSWER_LIMITS.email).refine(
        (v) => v === '' || EMAIL.safeParse(v).success,
        M.email,
      );
    case 'phone':
      return textAnswer(field, ANSWER_LIMITS.phone).refine((v) => v === '' || isPhone(v), M.phone);
    case 'select':
    case 'radio':
      return z.preprocess(
        blank,
        z
          .string({ error: M.option(field.label) })
          .refine((v) => v === '' || field.options.some((o) => o.id === v), {
            message: M.option(field.label),
            abort: true,
          })
          .refine((v) => !field.required || v !== '', M.required(field.label)),
      );
    case 'checkbox':
      return z.preprocess(
        (v) => (v === undefined || v === null ? false : v),
        z
          .boolean({ error: M.checkbox(field.label) })
          .refine((v) => !field.required || v, M.required(field.label)),
      );
    case 'name':
      return nameAnswer(field);
  }
}

/** One set of answers: a rule per field, by its id; answers to fields the form does not have are dropped. */
export function answerSetSchema(fields: PublicFormField[]) {
  return z.object(Object.fromEntries(fields.map((f) => [f.id, fieldAnswerSchema(f)])), {
    error: M.sets(1),
  }) as unknown as z.ZodType<AnswerSet>;
}

/**
 * The schema of a checkout's `answers`, built from the course's form (null when it has none) and
 * the party's size. Absent answers are empty sets (so a form of optional fields needs none); a
 * course without a form refuses any answer.
 */
export function formAnswersSchema(
  form: PublicCheckoutForm | null,
  partySize: number,
): z.ZodType<AnswerSet[]> {
  const count = answerSetCount(form, partySize);
  if (!form || count === 0) {
    return z
      .array(z.unknown())
      .max(0, M.noForm)
      .optional()
      .transform(() => []);
  }
  const set = answerSetSchema(form.fields);
  return z.preprocess(
    (v) => (v === undefined ? Array.from({ length: count }, () => ({})) : v),
    z.array(set, { error: M.sets(count) }).length(count, M.sets(count)),
  ) as unknown as z.ZodType<AnswerSet[]>;
}

/** A failed parse of `answers` as { key: message }, first message per key; the keys are answerErrorKey's. */
export function answerErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const [set, field] = issue.path;
    const key = typeof set === 'number' && typeof field === 'string' ? answerErrorKey(set, field) : 'answers';
    errors[key] ??= issue.message;
  }
  return errors;
}

/** One answer as kept with the order: the field's label and the answer in words, as they were. */
export interface StoredAnswer {
  field_id: string;
  type: PublicFormField['type'];
  label: string;
  value: string;
}

/** An answer in words: an option's text, Yes or No, a full name. */
export function answerText(field: PublicFormField, value: FormAnswerValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return `${value.first_name} ${value.last_name}`.trim();
  if (field.type === 'select' || field.type === 'radio')
    return field.options.find((o) => o.id === value)?.value ?? value;
  return value;
}

/**
 * The answers to keep with an order: per ticket, each set with its ticket number (from 1); per
 * order, one set with none. Every field of the form is kept, unanswered ones as ''.
 */
export function storedAnswerSets(
  form: PublicCheckoutForm,
  sets: AnswerSet[],
): { ticket: number | null; answers: StoredAnswer[] }[] {
  const perTicket: boolean = form.collection_type === ('ticket' satisfies FormCollectionType);
  return sets.map((set, index) => ({
    ticket: perTicket ? index + 1 : null,
    answers: form.fields.map((field) => ({
      field_id: field.id,
      type: field.type,
      label: field.label,
      value: answerText(field, set[field.id]),
    })),
  }));
}

/**
 * What a buyer sees of a course's form (the builder's fields as stored), or null when it has no
 * field: ids, types, labels, placeholders, descriptions, required, options; nothing else.
 */
export function toPublicCheckoutForm(
  collectionType: FormCollectionType,
  fields: readonly Partial<PublicFormField>[] | null | undefined,
): PublicCheckoutForm | null {
  if (!fields || fields.length === 0) return null;
  return {
    collection_type: collectionType,
    fields: fields.map((f) => ({
      id: f.id ?? '',
      type: f.type ?? 'text',
      label: f.label ?? '',
      placeholder: f.placeholder ?? '',
      description: f.description ?? '',
      required: f.required ?? false,
      options: (f.options ?? []).map((o) => ({ id: o.id, value: o.value })),
    })),
  };
}
