import { COURSE_CREATE_CASES, COURSE_UPDATE_CASES } from './course.cases';
import { COURSE_MESSAGES as M } from './course-messages';
import { courseCreateFormSchema, courseCreateSchema, courseUpdateFormSchema, courseUpdateSchema, keepWholeDays } from './course.schema';
import { DEFAULT_START_TIME, DEFAULT_START_TIME_INDEX, START_TIME_OPTIONS } from './catalog-constants';

const ids = { a: '7f0c2b9e-3a52-4b7e-9f5e-2f4b8b7f6a11', b: '0b5f4d3c-2a1e-4f6d-8c7b-9a8e7d6c5b4a' };

const validCreate = {
  name: 'Wheel throwing',
  material: 'Ceramics',
  priceType: 'standard',
  price: 4500,
  description: 'Learn to center clay and throw a cylinder.',
  capacity: 8,
  images: ['https://img.example/1.png'],
  location_id: ids.a,
  instructor_id: ids.b,
  level: 'Beginner',
};

const validUpdate = {
  name: 'Wheel throwing for beginners',
  price: 4500,
  description: 'Learn to center clay and throw a cylinder.',
  capacity: 8,
  level: 'Beginner',
  category_id: 4,
  images: ['https://img.example/1.png'],
  instructor_id: ids.b,
  location_id: ids.a,
};

function fieldErrors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[issue.path.join('.')] ??= issue.message;
  return out;
}

describe('course creation rules (spec 000 §5)', () => {
  it.each(COURSE_CREATE_CASES)('$name', ({ patch, errors }) => {
    expect(fieldErrors(courseCreateSchema.safeParse({ ...validCreate, ...patch }))).toEqual(errors);
  });

  it('fills in the defaults of spec 000 §9', () => {
    const parsed = courseCreateSchema.parse(validCreate);
    expect(parsed).toMatchObject({
      cancel_policy_id: 3,
      reschedule_policy_id: 4,
      activity_type: 'scheduled',
      formCollectionType: 'order',
      default_days: 1,
      default_days_apart: 1,
      default_daily_mins: 60,
      default_start_time: '12:00',
      start_time_increments_mins: 30,
    });
    expect(START_TIME_OPTIONS[DEFAULT_START_TIME_INDEX]).toEqual({ value: '12:00', label: '12:00 PM' });
    expect(DEFAULT_START_TIME).toBe('12:00');
    expect(START_TIME_OPTIONS).toHaveLength(96);
  });

  it('rejects unknown fields', () => {
    expect(fieldErrors(courseCreateSchema.safeParse({ ...validCreate, organization_id: ids.a }))).toEqual({
      '': expect.stringContaining('organization_id'),
    });
  });

  it('the form reads dollars and gives the API cents, with the same messages', () => {
    expect(courseCreateFormSchema.parse({ ...validCreate, price: '45.50' }).price).toBe(4550);
    expect(fieldErrors(courseCreateFormSchema.safeParse({ ...validCreate, price: '45.505' }))).toEqual({ price: M.price });
    expect(fieldErrors(courseCreateFormSchema.safeParse({ ...validCreate, price: '' }))).toEqual({ price: M.price });
  });
});

describe('course edit rules (spec 001 §5)', () => {
  it.each(COURSE_UPDATE_CASES)('$name', ({ patch, errors }) => {
    expect(fieldErrors(courseUpdateSchema.safeParse({ ...validUpdate, ...patch }))).toEqual(errors);
  });

  it('a free course re-saves from the form without a price; a standard one needs it', () => {
    const free = courseUpdateFormSchema.parse({ ...validUpdate, priceType: 'free', price: '' });
    expect(free).toMatchObject({ priceType: 'free' });
    expect(free.price).toBeUndefined();
    expect(fieldErrors(courseUpdateFormSchema.safeParse({ ...validUpdate, priceType: 'standard', price: '' }))).toEqual({ price: M.price });
    expect(courseUpdateFormSchema.parse({ ...validUpdate, price: '52.50' })).toMatchObject({ priceType: 'standard', price: 5250 });
  });

  it('a free course ignores the price the form still holds, whatever it is (issue 19)', () => {
    const free = courseUpdateFormSchema.safeParse({ ...validUpdate, priceType: 'free', price: '12.345' });
    expect(fieldErrors(free)).toEqual({});
    expect(free.data?.price).toBeUndefined();
  });

  it('sends days and days apart only when whole numbers', () => {
    expect(keepWholeDays({ default_days: 2, default_days_apart: 1.5 })).toEqual({ default_days: 2 });
  });
});
