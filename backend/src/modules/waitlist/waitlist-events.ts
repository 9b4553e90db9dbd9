import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the waitlist announces (issue 23), published in the transaction of the change (the outbox):
 * a party joined (its confirmation mail; asked again, the owner's reminder), seats offered (the claim
 * mail and the offer's expiry job). The offer carries no claim token (issue 31: the outbox keeps its
 * rows for days): the mail's handler derives it again (WaitlistClaimTokens), the entry keeps only its SHA-256.
 * At least once, in order per entry: handlers are idempotent (the mail's dedupe key, the job's id).
 */
export type WaitlistEvent =
  /** A party joined; `again`: the same email asked to join once more (the entry is unchanged). */
  | { type: 'waitlist.joined'; organizationId: string; entryId: string; eventId: string; again?: boolean }
  | {
      type: 'waitlist.offered';
      organizationId: string;
      entryId: string;
      eventId: string;
      /** Only in announcements written before tokens were derived (read, never written). */
      token?: string;
      /** ISO instant the offer's hold ends. */
      offeredUntil: string;
    };

@Injectable()
export class WaitlistEvents extends DurableEvents<WaitlistEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.entryId);
  }
}
