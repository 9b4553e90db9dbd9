import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the catalog announces about a course, published in the transaction of the change (the
 * outbox). The sync module listens (Edit Course's `sync_with_eventbrite` + `eventbrite_event_id` link
 * the course to an existing Eventbrite event). At least once, in order per course: listeners are idempotent.
 */
export type CourseEvent = {
  type: 'course.updated';
  organizationId: string;
  activityId: string;
  syncWithEventbrite: boolean;
  eventbriteEventId: string | null;
};

/** What the catalog announces about courses (see DurableEvents); ordered per course. */
@Injectable()
export class CourseEvents extends DurableEvents<CourseEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.activityId);
  }
}
