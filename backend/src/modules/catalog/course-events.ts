import { Injectable } from '@nestjs/common';
import { InProcessEvents } from '../../common/in-process-events';

/**
 * What the catalog announces once a course change is committed. The sync module listens (Edit
 * Course's `sync_with_eventbrite` + `eventbrite_event_id` link the course to an existing Eventbrite
 * event). Listeners must be idempotent: an announcement may repeat.
 */
export type CourseEvent = {
  type: 'course.updated';
  organizationId: string;
  activityId: string;
  syncWithEventbrite: boolean;
  eventbriteEventId: string | null;
};

/** What the catalog announces about courses (see InProcessEvents). */
@Injectable()
export class CourseEvents extends InProcessEvents<CourseEvent> {}
