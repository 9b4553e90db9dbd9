import { availabilitySchema, materialOf } from '@studio/contracts';
import { CourseScheduleSummary } from './course-schedule.port';
import { Activity } from './entities/activity.entity';

const iso = (d: Date) => d.toISOString();

/** Spec 001 §4: a scheduled course is listed with a future event; an appointment when its status is listed. */
export function isListed(course: Pick<Activity, 'activityType' | 'status'>, summary: CourseScheduleSummary): boolean {
  return course.activityType === 'appointment' ? course.status === 'listed' : summary.future_event_count > 0;
}

export function mapCourse(course: Activity, summary: CourseScheduleSummary) {
  const fields = course.requiredForm?.fields ?? [];
  return {
    activity_id: course.id,
    name: course.name,
    description: course.description,
    capacity: course.capacity,
    price_type: course.priceType,
    prices: [{ unit_price: course.priceCents }],
    images: course.images.getItems().map((i) => i.media.url),
    location_id: course.location.id,
    instructor_id: course.instructor.id,
    Location: { address: course.location.address, timezone: { timeZoneId: course.location.timezone } },
    Instructor: { first_name: course.instructor.firstName, photo_url: course.instructor.photoUrl ?? null },
    level: course.level,
    category_id: course.categoryId,
    material: materialOf(course.categoryId) ?? '',
    tools: course.tools,
    auto_email: course.autoEmail,
    cancel_policy_id: course.cancelPolicyId,
    reschedule_policy_id: course.reschedulePolicyId,
    activity_type: course.activityType,
    single_party: course.singleParty,
    status: course.status,
    form_collection_type: course.formCollectionType,
    required_form_id: course.requiredForm?.id ?? null,
    RequiredForm: course.requiredForm
      ? {
          fields: fields.map((f) => ({
            id: f.id,
            field_key: f.id,
            type: f.type,
            label: f.label,
            placeholder: f.placeholder ?? '',
            description: f.description ?? '',
            required: f.required ?? false,
            options: (f.options ?? []).map((o) => ({ id: o.id, option_key: o.id, value: o.value })),
          })),
        }
      : null,
    RequiredTemplates: course.requiredWaiver ? [{ template_id: course.requiredWaiver.id, name: course.requiredWaiver.name }] : [],
    buffer_before_mins: course.bufferBeforeMins,
    buffer_after_mins: course.bufferAfterMins,
    min_notice_mins: course.minNoticeMins,
    start_time_increments_mins: course.startTimeIncrementsMins,
    duration_mins: course.durationMins,
    booking_window_days: course.bookingWindowDays,
    availability: ownAvailability(course.availability),
    default_days: course.defaultDays,
    default_days_apart: course.defaultDaysApart,
    default_daily_mins: course.defaultDailyMins,
    default_start_time: course.defaultStartTime,
    sync_with_eventbrite: course.syncWithEventbrite,
    eventbrite_event_id: course.eventbriteEventId ?? null,
    Event: summary.events.map((e) => ({ event_id: e.event_id, starts_at: iso(e.starts_at), ends_at: iso(e.ends_at) })),
    // Filled in when the sync module lands; the shapes are the spec's.
    syncMappings: [],
    Organization: { SyncProvider: [] },
    listed: isListed(course, summary),
    has_events: course.activityType === 'appointment' ? course.status === 'listed' : summary.event_count > 0,
    created_at: iso(course.createdAt),
    updated_at: iso(course.updatedAt),
  };
}


/** The course's own hours as saved (read back through their schema); null: it books its instructor's. */
function ownAvailability(stored: unknown) {
  if (stored === null || stored === undefined) return null;
  const parsed = availabilitySchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
