import { z } from 'zod';
import { courseCreateSchema, courseUpdateSchema } from './catalog/course.schema';
import { waiverSchema } from './catalog/reference-data.schema';
import { enrollBodySchema } from './scheduling/scheduling.schema';
import { checkoutQuoteSchema } from './storefront/checkout.schema';
import { storeWaiverRequestSchema } from './storefront/store-waiver';

type Schema = {
  required?: string[];
  properties?: Record<string, { const?: unknown; type?: string; minLength?: number }>;
  if?: Schema;
  then?: { not?: Schema };
  else?: Schema;
};

/** Whether a body matches an `if` of the kind requiredUnless writes (required names, const, a non-empty string). */
function matches(condition: Schema, body: Record<string, unknown>): boolean {
  if ((condition.required ?? []).some((key) => body[key] === undefined)) return false;
  return Object.entries(condition.properties ?? {}).every(([key, rule]) => {
    const value = body[key];
    if (value === undefined) return true;
    if (rule.const !== undefined && value !== rule.const) return false;
    if (rule.type === 'string' && (typeof value !== 'string' || value.length < (rule.minLength ?? 0)))
      return false;
    return true;
  });
}

/** The fields the OpenAPI document (zod's JSON Schema of the body) says are missing, or sent though forbidden. */
function documentedMissing(schema: z.ZodType, body: Record<string, unknown>): string[] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Schema;
  const missing = (json.required ?? []).filter((key) => body[key] === undefined);
  if (!json.if) return missing;
  if (matches(json.if, body))
    return [...missing, ...(json.then?.not?.required ?? []).filter((key) => body[key] !== undefined)];
  return [...missing, ...(json.else?.required ?? []).filter((key) => body[key] === undefined)];
}

const errorFields = (schema: z.ZodType, body: Record<string, unknown>) => {
  const result = schema.safeParse(body);
  return result.success ? [] : [...new Set(result.error.issues.map((i) => String(i.path[0])))];
};

const ids = { a: '7f0c2b9e-3a52-4b7e-9f5e-2f4b8b7f6a11', b: '0b5f4d3c-2a1e-4f6d-8c7b-9a8e7d6c5b4a' };
const buyer = { first_name: 'Aiko', last_name: 'Sato', email: 'aiko@example.test' };
const course = {
  name: 'Wheel throwing',
  material: 'Ceramics',
  description: 'Learn to center clay and throw a cylinder.',
  capacity: 8,
  images: ['https://img.example/1.png'],
  location_id: ids.a,
  instructor_id: ids.b,
  level: 'Beginner',
};
const { material: _material, ...courseShared } = course;
const courseEdit = { ...courseShared, name: 'Wheel throwing for beginners', category_id: 4 };

/**
 * The requirements that depend on another field (requiredUnless) say what the zod rule does: for
 * each body, the field the document calls missing is the one zod refuses, and no other.
 */
describe('conditional requirements in the OpenAPI document agree with the zod rules', () => {
  it.each([
    ['course, price type left out, no price', courseCreateSchema, course, ['price']],
    ['course, standard, no price', courseCreateSchema, { ...course, priceType: 'standard' }, ['price']],
    ['course, standard, a price', courseCreateSchema, { ...course, priceType: 'standard', price: 4500 }, []],
    ['course, free, no price', courseCreateSchema, { ...course, priceType: 'free' }, []],
    ['course edit, no price', courseUpdateSchema, courseEdit, ['price']],
    ['course edit, free, no price', courseUpdateSchema, { ...courseEdit, priceType: 'free' }, []],
    ['waiver, text only', waiverSchema, { name: 'Release', body: 'I accept.' }, []],
    ['waiver, document only', waiverSchema, { name: 'Release', document_url: 'https://x.example/w.pdf' }, []],
    ['waiver, neither', waiverSchema, { name: 'Release' }, ['body']],
    ['waiver, document null', waiverSchema, { name: 'Release', document_url: null }, ['body']],
    ['enroll, a session', enrollBodySchema, { event_id: ids.a }, []],
    ['enroll, an appointment', enrollBodySchema, { appointment_id: ids.a }, []],
    ['enroll, neither', enrollBodySchema, {}, ['event_id']],
    ['enroll, both', enrollBodySchema, { event_id: ids.a, appointment_id: ids.b }, ['event_id']],
    ['store quote, a session', checkoutQuoteSchema, { event_id: ids.a }, []],
    ['store quote, an appointment time', checkoutQuoteSchema, { activity_id: ids.a, starts_at: '2026-12-01T15:00:00Z' }, []],
    ['store quote, neither', checkoutQuoteSchema, {}, ['event_id']],
    ['store quote, both', checkoutQuoteSchema, { event_id: ids.a, activity_id: ids.b, starts_at: '2026-12-01T15:00:00Z' }, ['event_id']],
    ['store waiver, a session', storeWaiverRequestSchema, { ...buyer, event_id: ids.a }, []],
    ['store waiver, an appointment course', storeWaiverRequestSchema, { ...buyer, activity_id: ids.a }, []],
    ['store waiver, neither', storeWaiverRequestSchema, buyer, ['event_id']],
    ['store waiver, both', storeWaiverRequestSchema, { ...buyer, event_id: ids.a, activity_id: ids.b }, ['event_id']],
  ] as const)('%s', (_name, schema, body, expected) => {
    expect(documentedMissing(schema, body)).toEqual(expected);
    expect(errorFields(schema, body)).toEqual(expected);
  });
});
