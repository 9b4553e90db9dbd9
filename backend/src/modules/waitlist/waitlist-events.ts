import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the waitlist announces (issue 23), published in the transaction of the change (the outbox):
 * a party joined (its confirmation mail; asked again, the owner's reminder), seats offered (the claim mail and the offer's expiry job).
 * The offer carries its claim token, which only the mail ever shows (the entry keeps its SHA-256).
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
      /** The claim link's token. */
      token: string;
      /** ISO instant the offer's hold ends. */
      offeredUntil: string;
    };

@Injectable()
export class WaitlistEvents extends DurableEvents<WaitlistEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.entryId);
  }
}
