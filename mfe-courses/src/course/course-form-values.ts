import type { CheckoutFormField, FormCollectionType, PriceType } from '@studio/contracts';
import type { AvailabilityValues } from '../availability/availability-values';

/** Appointment scheduling settings, shared by the New and Edit Course forms. */
export interface SchedulingValues {
  buffer_before_mins?: number;
  buffer_after_mins?: number;
  min_notice_mins?: number;
  start_time_increments_mins?: 15 | 30 | 60;
  duration_mins?: number;
  /** How far ahead a student may book, in days (issue 22). */
  booking_window_days?: number | '';
  /** The course's own bookable hours; null: its instructor's (issue 22). */
  availability?: AvailabilityValues | null;
}

/** Defaults the Schedule Course drawer starts from. */
export interface CourseDefaultsValues {
  default_days?: number | '';
  default_days_apart?: number | '';
  default_daily_mins?: number;
  default_start_time?: string;
}

export type FormFields = CheckoutFormField[];

/** The sections the New and Edit Course forms share (course-sections.tsx). */
export interface CourseSectionValues {
  name: string;
  description: string;
  priceType: PriceType;
  /** Dollars as typed. */
  price: string;
  location_id: string | null;
  instructor_id: string | null;
  checkoutFormFields: CheckoutFormField[];
  formCollectionType: FormCollectionType;
}
