import {
  DEFAULT_BOOKING_WINDOW_DAYS,
  DEFAULT_DAILY_MINS,
  DEFAULT_DAYS,
  DEFAULT_DAYS_APART,
  DEFAULT_START_TIME,
  defaultPolicyIds,
  type ActivityType,
  type CheckoutFormField,
  type FormCollectionType,
  type Level,
  type Material,
  type PriceType,
} from '@studio/contracts';
import type { CourseDefaultsValues, SchedulingValues } from '../course/course-form-values';

/** The New Course form as typed; courseCreateFormSchema turns it into the cents payload. */
export interface CourseBuilderValues extends SchedulingValues, CourseDefaultsValues {
  name: string;
  material: Material | undefined;
  priceType: PriceType;
  /** Dollars as typed ("450.99"). */
  price: string;
  description: string;
  capacity: number | '';
  images: string[];
  tools: string;
  location_id: string | null;
  instructor_id: string | null;
  level: Level | undefined;
  cancel_policy_id: number;
  reschedule_policy_id: number;
  activity_type: ActivityType;
  single_party: boolean;
  checkoutFormFields: CheckoutFormField[];
  formCollectionType: FormCollectionType;
  selected_waiver: string | null;
  auto_email: string;
}

/** Spec 000 §9 defaults: Firm and Agile policies, 1 day, 1 day apart, 60 minutes, 12:00 PM. */
export function courseBuilderDefaults(): CourseBuilderValues {
  return {
    name: '',
    material: undefined,
    priceType: 'standard',
    price: '',
    description: '',
    capacity: '',
    images: [],
    tools: '',
    location_id: null,
    instructor_id: null,
    level: undefined,
    ...defaultPolicyIds(true),
    activity_type: 'scheduled',
    single_party: false,
    checkoutFormFields: [],
    formCollectionType: 'order',
    selected_waiver: null,
    auto_email: '',
    buffer_before_mins: 0,
    buffer_after_mins: 0,
    min_notice_mins: 0,
    start_time_increments_mins: 30,
    duration_mins: 60,
    booking_window_days: DEFAULT_BOOKING_WINDOW_DAYS,
    availability: null,
    default_days: DEFAULT_DAYS,
    default_days_apart: DEFAULT_DAYS_APART,
    default_daily_mins: DEFAULT_DAILY_MINS,
    default_start_time: DEFAULT_START_TIME,
  };
}

export const COURSE_BUILDER_FIELDS = Object.keys(courseBuilderDefaults());
