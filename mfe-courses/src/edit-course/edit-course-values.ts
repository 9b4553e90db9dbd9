import {
  START_TIME_INCREMENTS_MINS,
  centsToAmountText,
  type CheckoutFormField,
  type FormCollectionType,
  type Level,
  type PriceType,
} from '@studio/contracts';
import type { CourseDetail } from '@studio/ui';
import { toAvailabilityValues } from '../availability/availability-values';
import { fieldsFromCourse } from '../course/checkout-fields';
import type { CourseDefaultsValues, SchedulingValues } from '../course/course-form-values';

/** The Edit Course form as typed; courseUpdateFormSchema turns it into the PUT body (cents). */
export interface EditCourseValues extends SchedulingValues, CourseDefaultsValues {
  name: string;
  /** A free course has no price: the field is hidden and left out of the body. */
  priceType: PriceType;
  /** Dollars as typed. */
  price: string;
  description: string;
  required_waiver_id: string | null;
  capacity: number | '';
  level: Level | undefined;
  category_id: number | undefined;
  autoEmail: string;
  images: string[];
  instructor_id: string | null;
  location_id: string | null;
  sync_with_eventbrite: boolean;
  eventbrite_event_id: string | null;
  checkoutFormFields: CheckoutFormField[];
  formCollectionType: FormCollectionType;
  required_form_id: string | null;
}

const increments = (value: number): 15 | 30 | 60 | undefined =>
  (START_TIME_INCREMENTS_MINS as readonly number[]).includes(value) ? (value as 15 | 30 | 60) : undefined;

/** A course as read (GET /activities/{id}) turned into the edit form's values. */
export function courseToEditValues(course: CourseDetail): EditCourseValues {
  const cents = course.prices[0]?.unit_price;
  const priceType: PriceType = course.price_type === 'free' ? 'free' : 'standard';
  return {
    name: course.name,
    priceType,
    price: cents === undefined || priceType === 'free' ? '' : centsToAmountText(cents),
    description: course.description,
    required_waiver_id: course.RequiredTemplates[0]?.template_id ?? null,
    capacity: course.capacity,
    level: (course.level as Level) || undefined,
    category_id: course.category_id || undefined,
    autoEmail: course.auto_email ?? '',
    images: course.images,
    instructor_id: course.instructor_id,
    location_id: course.location_id,
    sync_with_eventbrite: course.sync_with_eventbrite,
    eventbrite_event_id: course.eventbrite_event_id ?? null,
    checkoutFormFields: fieldsFromCourse(course.RequiredForm?.fields),
    formCollectionType: course.form_collection_type ?? 'order',
    required_form_id: course.required_form_id,
    default_days: course.default_days,
    default_days_apart: course.default_days_apart,
    default_daily_mins: course.default_daily_mins,
    default_start_time: course.default_start_time,
    buffer_before_mins: course.buffer_before_mins,
    buffer_after_mins: course.buffer_after_mins,
    min_notice_mins: course.min_notice_mins,
    start_time_increments_mins: increments(course.start_time_increments_mins),
    duration_mins: course.duration_mins,
    booking_window_days: course.booking_window_days,
    availability: course.availability ? toAvailabilityValues(course.availability) : null,
  };
}

export const EDIT_COURSE_FIELDS = Object.keys(courseToEditValuesShape());

function courseToEditValuesShape(): Record<keyof EditCourseValues, true> {
  return {
    name: true,
    priceType: true,
    price: true,
    description: true,
    required_waiver_id: true,
    capacity: true,
    level: true,
    category_id: true,
    autoEmail: true,
    images: true,
    instructor_id: true,
    location_id: true,
    sync_with_eventbrite: true,
    eventbrite_event_id: true,
    checkoutFormFields: true,
    formCollectionType: true,
    required_form_id: true,
    default_days: true,
    default_days_apart: true,
    default_daily_mins: true,
    default_start_time: true,
    buffer_before_mins: true,
    buffer_after_mins: true,
    min_notice_mins: true,
    start_time_increments_mins: true,
    duration_mins: true,
    booking_window_days: true,
    availability: true,
  };
}
