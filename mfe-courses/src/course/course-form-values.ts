import type { CheckoutFormField } from '@studio/contracts';

/** Appointment scheduling settings, shared by the New and Edit Course forms. */
export interface SchedulingValues {
  buffer_before_mins?: number;
  buffer_after_mins?: number;
  min_notice_mins?: number;
  start_time_increments_mins?: 15 | 30 | 60;
  duration_mins?: number;
}

/** Defaults the Schedule Course drawer starts from. */
export interface CourseDefaultsValues {
  default_days?: number | '';
  default_days_apart?: number | '';
  default_daily_mins?: number;
  default_start_time?: string;
}

export type FormFields = CheckoutFormField[];
