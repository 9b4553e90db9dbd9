import { COURSE_MESSAGES as M } from './course-messages';

/**
 * One table of good and bad course payloads, run against the schema (unit test) and against the
 * HTTP endpoint (backend e2e), so the browser and the API cannot drift apart. `base` values are
 * filled in by each test with real ids and uploaded image URLs.
 */
export interface CourseCase {
  name: string;
  patch: Record<string, unknown>;
  /** Field -> message expected; empty means the payload is valid. */
  errors: Record<string, string>;
}

export const COURSE_CREATE_CASES: CourseCase[] = [
  { name: 'a complete scheduled course', patch: {}, errors: {} },
  { name: 'a free course without a price', patch: { priceType: 'free', price: undefined }, errors: {} },
  { name: 'a one-character name', patch: { name: 'P' }, errors: {} },
  { name: 'an empty name', patch: { name: '' }, errors: { name: M.nameRequired } },
  { name: 'a missing name', patch: { name: undefined }, errors: { name: M.nameRequired } },
  { name: 'a short description', patch: { description: 'Too short' }, errors: { description: M.descriptionMin } },
  { name: 'no image', patch: { images: [] }, errors: { images: M.imagesRequired } },
  {
    name: 'eleven images',
    patch: { images: Array.from({ length: 11 }, (_, i) => `https://img.example/${i}.png`) },
    errors: { images: M.imagesMax },
  },
  { name: 'a free course sent with a price of 0', patch: { priceType: 'free', price: 0 }, errors: {} },
  // A field that does not apply is ignored, not validated (issue 19): a free course's leftover price.
  { name: 'a free course sent with a leftover negative price', patch: { priceType: 'free', price: -500 }, errors: {} },
  { name: 'a free course sent with a leftover text price', patch: { priceType: 'free', price: 'abc' }, errors: {} },
  { name: 'a zero price', patch: { price: 0 }, errors: { price: M.price } },
  { name: 'a negative price', patch: { price: -100 }, errors: { price: M.price } },
  { name: 'a standard price missing', patch: { price: undefined }, errors: { price: M.price } },
  {
    name: 'a missing price shown with a missing category',
    patch: { price: undefined, material: undefined },
    errors: { price: M.price, material: M.categoryCreate },
  },
  { name: 'a fractional cent price', patch: { price: 10.5 }, errors: { price: M.price } },
  { name: 'a text price', patch: { price: 'abc' }, errors: { price: M.price } },
  { name: 'no location', patch: { location_id: undefined }, errors: { location_id: M.locationRequired } },
  { name: 'no instructor', patch: { instructor_id: '' }, errors: { instructor_id: M.instructorRequired } },
  { name: 'a capacity of one', patch: { capacity: 1 }, errors: { capacity: M.capacityCreate } },
  { name: 'a fractional capacity', patch: { capacity: 2.5 }, errors: { capacity: M.capacityCreate } },
  { name: 'no category', patch: { material: undefined }, errors: { material: M.categoryCreate } },
  { name: 'an unknown category', patch: { material: 'Plastic' }, errors: { material: M.categoryCreate } },
  { name: 'an unknown level', patch: { level: 'Expert' }, errors: { level: M.levelRequired } },
  { name: 'fractional default days', patch: { default_days: 1.5 }, errors: { default_days: M.defaultDays } },
  { name: 'fractional days apart', patch: { default_days_apart: 0.5 }, errors: { default_days_apart: M.defaultDaysApart } },
  { name: 'a class duration off the list', patch: { default_daily_mins: 45 }, errors: { default_daily_mins: M.defaultDailyMins } },
  { name: 'a start time off the 15-minute steps', patch: { default_start_time: '09:10' }, errors: { default_start_time: M.defaultStartTime } },
  { name: 'a buffer over 240 minutes', patch: { buffer_before_mins: 241 }, errors: { buffer_before_mins: M.buffer } },
  { name: 'a minimum notice over a week', patch: { min_notice_mins: 10081 }, errors: { min_notice_mins: M.minNotice } },
  { name: 'a 20-minute increment', patch: { start_time_increments_mins: 20 }, errors: { start_time_increments_mins: M.increments } },
  { name: 'a 4-minute appointment', patch: { duration_mins: 4 }, errors: { duration_mins: M.duration } },
  { name: 'a 25-hour appointment', patch: { duration_mins: 1500 }, errors: { duration_mins: M.duration } },
  { name: 'a booking window of 0 days', patch: { booking_window_days: 0 }, errors: { booking_window_days: M.bookingWindow } },
  { name: 'a booking window over a year', patch: { booking_window_days: 366 }, errors: { booking_window_days: M.bookingWindow } },
  {
    name: 'appointment mode without single party',
    patch: { activity_type: 'appointment', single_party: false },
    errors: { single_party: M.appointmentNeedsSingleParty },
  },
  { name: 'an appointment course with single party', patch: { activity_type: 'appointment', single_party: true }, errors: {} },
  { name: 'a rescheduling id as cancellation policy', patch: { cancel_policy_id: 4 }, errors: { cancel_policy_id: M.cancelPolicy } },
  {
    name: 'two email fields',
    patch: {
      checkoutFormFields: [
        { id: 'a', type: 'email', label: 'Email' },
        { id: 'b', type: 'email', label: 'Work email' },
      ],
    },
    errors: { 'checkoutFormFields.1.type': M.fieldOnce('email') },
  },
  {
    name: 'a select field without options',
    patch: { checkoutFormFields: [{ id: 'a', type: 'select', label: 'Size', options: [] }] },
    errors: { 'checkoutFormFields.0.options': M.fieldOptions },
  },
  {
    name: 'a radio field with an option',
    patch: {
      checkoutFormFields: [{ id: 'a', type: 'radio', label: 'Apron size', options: [{ id: 'o1', value: 'Option 1' }] }],
    },
    errors: {},
  },
];

export const COURSE_UPDATE_CASES: CourseCase[] = [
  { name: 'a complete edit', patch: {}, errors: {} },
  { name: 'an empty name', patch: { name: '' }, errors: { name: M.nameRequired } },
  { name: 'a name under 10 characters', patch: { name: 'Pottery' }, errors: { name: M.nameMinEdit } },
  { name: 'a short description', patch: { description: 'Short' }, errors: { description: M.descriptionMin } },
  { name: 'no image', patch: { images: [] }, errors: { images: M.imagesRequired } },
  { name: 'no instructor', patch: { instructor_id: undefined }, errors: { instructor_id: M.instructorSelect } },
  { name: 'no location', patch: { location_id: null }, errors: { location_id: M.locationSelect } },
  { name: 'a zero price', patch: { price: 0 }, errors: { price: M.price } },
  { name: 'a standard price missing', patch: { price: undefined }, errors: { price: M.price } },
  {
    name: 'a missing price shown with a missing difficulty',
    patch: { price: undefined, level: undefined },
    errors: { price: M.price, level: M.levelRequired },
  },
  { name: 'a free course without a price', patch: { priceType: 'free', price: undefined }, errors: {} },
  { name: 'a free course sent with its price of 0', patch: { priceType: 'free', price: 0 }, errors: {} },
  { name: 'a free course sent with a leftover fractional price', patch: { priceType: 'free', price: 10.5 }, errors: {} },
  { name: 'a price type that is shown but disabled', patch: { priceType: 'pwyw' }, errors: { priceType: M.priceType } },
  { name: 'a capacity of zero', patch: { capacity: 0 }, errors: { capacity: M.capacityEdit } },
  { name: 'a capacity of one', patch: { capacity: 1 }, errors: {} },
  { name: 'no material', patch: { category_id: undefined }, errors: { category_id: M.materialEdit } },
  { name: 'an unknown material', patch: { category_id: 8 }, errors: { category_id: M.materialEdit } },
  { name: 'no difficulty', patch: { level: undefined }, errors: { level: M.levelRequired } },
  {
    name: 'ticketing sync without an event',
    patch: { sync_with_eventbrite: true, eventbrite_event_id: null },
    errors: { eventbrite_event_id: M.eventbriteEvent },
  },
  { name: 'fractional default days', patch: { default_days: 2.5 }, errors: { default_days: M.defaultDays } },
];
