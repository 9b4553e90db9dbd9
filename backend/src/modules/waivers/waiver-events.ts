import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the waivers module announces about a signature request (issue 33), published in the
 * transaction of the change that causes it (the outbox), so the effect happens once that commits and
 * never for a change that rolled back:
 *   - waiver.requested: a request of its own was created (or handed over to a seat that must make
 *     it): the request is made at the provider and the sign link mailed (WaiverEffects);
 *   - waiver.reminded: an admin's reminder was recorded (last_reminded_at): the provider reminds, or
 *     the sign link is mailed again;
 *   - waiver.withdrawn: a pending request was withdrawn (or its provider submission appeared after
 *     its withdrawal): the provider's submission is archived, best effort.
 * At least once, in order per submission: handlers are idempotent (the request kept once, the mail's
 * dedupe key, archiving twice is harmless).
 */
export type WaiverEvent =
  | { type: 'waiver.requested'; organizationId: string; submissionId: string }
  | { type: 'waiver.reminded'; organizationId: string; submissionId: string; remindedAt: string }
  | { type: 'waiver.withdrawn'; organizationId: string; submissionId: string };

/** What the waivers module announces about its requests (see DurableEvents); ordered per submission. */
@Injectable()
export class WaiverEvents extends DurableEvents<WaiverEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.submissionId);
  }
}
