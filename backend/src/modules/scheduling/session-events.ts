import { Injectable } from '@nestjs/common';
import { InProcessEvents } from '../../common/in-process-events';

/**
 * What the scheduling module announces once a session (event) change is committed. The sync module
 * listens (the session becomes or updates an Eventbrite event and a Zoom meeting; a removed session
 * cancels them). Ids only: a listener reads the session fresh through EventsService.syncView.
 * Listeners must be idempotent: an announcement may repeat.
 */
export type SessionEvent =
  | { type: 'session.saved'; organizationId: string; eventId: string; activityId: string; created: boolean }
  | { type: 'session.removed'; organizationId: string; eventId: string; activityId: string };

/** What the scheduling module announces about sessions (see InProcessEvents). */
@Injectable()
export class SessionEvents extends InProcessEvents<SessionEvent> {}
