import {
  availabilitySchema,
  courseCreateSchema,
  courseImagesUpdateSchema,
  courseUpdateSchema,
  instructorSchema,
  locationSchema,
  MAX_PAGE,
  queryCount,
  waiverSchema,
} from '@studio/contracts';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';

export class CourseCreateDto extends createZodDto(courseCreateSchema) {}
export class CourseUpdateDto extends createZodDto(courseUpdateSchema) {}
export class CourseImagesUpdateDto extends createZodDto(courseImagesUpdateSchema) {}
export class LocationDto extends createZodDto(locationSchema) {}
export class InstructorDto extends createZodDto(instructorSchema) {}
/** An instructor's (or a course's) weekly hours and date overrides, in the location's zone (issue 22). */
export class AvailabilityDto extends createZodDto(availabilitySchema) {}
export class WaiverDto extends createZodDto(waiverSchema) {}

const locationOut = z.object({
  location_id: z.uuid(),
  name: z.string(),
  address: z.string(),
  timezone: z.string(),
  online: z.boolean().describe('sessions here get a video meeting (Zoom) when it is connected'),
});
export class LocationOutDto extends createZodDto(locationOut) {}
export class LocationListDto extends createZodDto(z.object({ locations: z.array(locationOut) })) {}

const instructorOut = z.object({
  instructor_id: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  photo_url: z.string().nullable(),
});
export class InstructorOutDto extends createZodDto(instructorOut) {}
export class InstructorListDto extends createZodDto(z.object({ instructors: z.array(instructorOut) })) {}

const waiverOut = z.object({ template_id: z.uuid(), name: z.string() });
export class WaiverOutDto extends createZodDto(
  waiverOut.extend({ body: z.string(), document_url: z.string().nullable(), created_at: z.string() }),
) {}
export class WaiverListDto extends createZodDto(
  z.object({ waivers: z.array(waiverOut), totalCount: z.number().int(), page: z.number().int(), limit: z.number().int() }),
) {}
export const waiverListQuerySchema = z
  .object({
    limit: queryCount({ min: 1, max: 1000 }).optional().default(1000),
    page: queryCount({ min: 1, max: MAX_PAGE }).optional().default(1),
  })
  .strict();
export class WaiverListQueryDto extends createZodDto(waiverListQuerySchema) {}

const policyOut = z.object({ id: z.number().int(), kind: z.enum(['cancellation', 'rescheduling']), name: z.string(), rule: z.string() });
export class PolicyListDto extends createZodDto(
  z.object({ cancellation: z.array(policyOut), rescheduling: z.array(policyOut) }),
) {}

export class UploadOutDto extends createZodDto(z.object({ id: z.uuid(), url: z.string() })) {}

const formFieldOut = z.object({
  id: z.string(),
  field_key: z.string(),
  type: z.string(),
  label: z.string(),
  placeholder: z.string(),
  description: z.string(),
  required: z.boolean(),
  options: z.array(z.object({ id: z.string(), option_key: z.string(), value: z.string() })),
});

export const courseOut = z.object({
  activity_id: z.uuid(),
  name: z.string(),
  description: z.string(),
  capacity: z.number().int(),
  price_type: z.enum(['standard', 'free']),
  prices: z.array(z.object({ unit_price: z.number().int().describe('cents') })),
  images: z.array(z.string()),
  location_id: z.uuid(),
  instructor_id: z.uuid(),
  Location: z.object({ address: z.string(), timezone: z.object({ timeZoneId: z.string() }) }),
  Instructor: z.object({ first_name: z.string(), photo_url: z.string().nullable() }),
  level: z.string(),
  category_id: z.number().int(),
  material: z.string(),
  tools: z.string(),
  auto_email: z.string(),
  cancel_policy_id: z.number().int(),
  reschedule_policy_id: z.number().int(),
  activity_type: z.enum(['scheduled', 'appointment']),
  single_party: z.boolean(),
  status: z.enum(['listed', 'unlisted']),
  form_collection_type: z.enum(['order', 'ticket']),
  required_form_id: z.uuid().nullable(),
  RequiredForm: z.object({ fields: z.array(formFieldOut) }).nullable(),
  RequiredTemplates: z.array(z.object({ template_id: z.uuid(), name: z.string() })),
  buffer_before_mins: z.number().int(),
  buffer_after_mins: z.number().int(),
  min_notice_mins: z.number().int(),
  start_time_increments_mins: z.number().int(),
  duration_mins: z.number().int(),
  booking_window_days: z.number().int().describe('How many days ahead a student may book an appointment (1 to 365)'),
  availability: availabilitySchema
    .nullable()
    .describe("An appointment course's own bookable hours (they win over its instructor's); null: it books its instructor's"),
  default_days: z.number().int(),
  default_days_apart: z.number().int(),
  default_daily_mins: z.number().int(),
  default_start_time: z.string(),
  sync_with_eventbrite: z.boolean(),
  eventbrite_event_id: z.string().nullable(),
  Event: z.array(z.object({ event_id: z.uuid(), starts_at: z.string(), ends_at: z.string() })),
  syncMappings: z.array(z.object({ SyncProvider: z.object({ name: z.string(), config_schema: z.object({ sync_all_courses: z.boolean() }) }) })),
  Organization: z.object({ SyncProvider: z.array(z.object({ name: z.string() })) }),
  listed: z.boolean().describe('List badge: scheduled with a future event, or an appointment with status listed'),
  has_events: z.boolean().describe('Edit panel badge: any event at all'),
  created_at: z.string(),
  updated_at: z.string(),
});
export class CourseOutDto extends createZodDto(courseOut) {}

export const courseListItem = z.object({
  activity_id: z.uuid(),
  name: z.string(),
  activity_type: z.enum(['scheduled', 'appointment']),
  listed: z.boolean(),
  image: z.string().nullable(),
  price_type: z.enum(['standard', 'free']),
  unit_price: z.number().int(),
  capacity: z.number().int(),
  location_address: z.string(),
  next_session_at: z.string().nullable(),
  session_count: z.number().int(),
  created_at: z.string(),
});
export class CourseListDto extends createZodDto(
  z.object({
    activities: z.array(courseListItem),
    totalCount: z.number().int(),
    currentPage: z.number().int(),
    itemsPerPage: z.number().int(),
  }),
) {}

export class CreatedCourseDto extends createZodDto(z.object({ activity_id: z.uuid() })) {}
