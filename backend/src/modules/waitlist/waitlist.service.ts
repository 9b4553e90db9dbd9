import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  WAITLIST_MESSAGES as M,
  type WaitlistClaim,
  type WaitlistJoinPayload,
  type WaitlistJoinResult,
} from '@studio/contracts';
import { ApiError } from '../../common/api-error';
import { Clock } from '../../common/clock';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { EnrollmentEvents } from '../scheduling/enrollment-events';
import { EnrollmentsService, HeldSeat } from '../scheduling/enrollments.service';
import { LockedSeats, lockEventForSeats } from '../scheduling/seats';
import { SessionEvents } from '../scheduling/session-events';
import type { Student } from '../students/student.entity';
import { WaitlistClaimTokens } from './waitlist-claim-token';
import { WaitlistEntry } from './waitlist-entry.entity';
import { WaitlistEvents } from './waitlist-events';
import { WaitlistMails } from './waitlist-mails';
import { waitlistSession, WaitlistSessionRow } from './waitlist-session.query';
import { EXPIRE_OFFERS_JOB, EXPIRY_GRACE_MS, ExpireOffersJob, SWEEP_EVERY_MS, SWEEP_SCHEDULE, WAITLIST_QUEUE } from './waitlist-jobs';

export { EXPIRE_OFFERS_JOB, WAITLIST_QUEUE, type ExpireOffersJob } from './waitlist-jobs';

const ACTIVE = ['waiting', 'offered'] as const;
const sessionNotFound = () => new ApiError(HttpStatus.NOT_FOUND, M.sessionNotFound);
const offerEnded = () => new ApiError(HttpStatus.GONE, M.offerEnded, { claim_token: M.offerEnded });

/**
 * The waitlist of sold-out sessions (issue 23). A party joins from the store (one entry per email
 * and session; joining again answers as a first join, issue 31); when seats come back (a seat removed or moved away, a refund that removed one, a
 * capacity raised, a hold released or run out) the first waiting parties that fit are offered them,
 * in order, under THE seat lock: the seats are held for the organization's claim time (a seat hold
 * of scheduling's, which counts like any other) and the party mailed a claim link. The claim is the
 * store's checkout taking over that hold; an offer left unclaimed expires and the next party that
 * fits is offered. Every handler is idempotent: offers are made from the free seats read under the
 * lock, so an event delivered twice finds none the second time. The admin's calls are
 * WaitlistAdminService's, the mails WaitlistMails', the claim tokens WaitlistClaimTokens'.
 */
@Injectable()
export class WaitlistService implements OnModuleInit {
  private readonly logger = new Logger('Waitlist');

  constructor(
    private readonly em: EntityManager,
    private readonly seats: EnrollmentsService,
    private readonly enrollmentEvents: EnrollmentEvents,
    private readonly sessionEvents: SessionEvents,
    private readonly events: WaitlistEvents,
    private readonly mails: WaitlistMails,
    private readonly claimTokens: WaitlistClaimTokens,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // Seats came back: offer them.
    this.enrollmentEvents.on('enrollment.removed', 'waitlist.offer', (e) =>
      this.offerFreeSeats(e.organizationId, e.eventId),
    );
    this.enrollmentEvents.on('enrollment.moved', 'waitlist.offer', (e) =>
      this.offerFreeSeats(e.organizationId, e.fromEventId),
    );
    this.sessionEvents.on('session.saved', 'waitlist.offer', (e) =>
      e.created ? undefined : this.offerFreeSeats(e.organizationId, e.eventId),
    );
    this.sessionEvents.on('session.seats_released', 'waitlist.offer', (e) =>
      this.offerFreeSeats(e.organizationId, e.eventId, e.waitlistEntryId),
    );
    // The studio cancelled the session: nobody will be offered a seat; each party is told.
    this.sessionEvents.on('session.cancelled', 'waitlist.close', (e) =>
      this.closeForCancelledSession(e.organizationId, e.eventId, e.reason),
    );
    this.events.on('waitlist.joined', 'waitlist.joined-mail', (e) => this.mails.joined(e.organizationId, e.entryId, e.again ?? false));
    this.events.on('waitlist.offered', 'waitlist.offer-mail', (e) => this.mails.offer(e.organizationId, e.entryId, e.token));
    this.events.on('waitlist.offered', 'waitlist.offer-expiry', (e) =>
      this.queue.add<ExpireOffersJob>(
        WAITLIST_QUEUE,
        EXPIRE_OFFERS_JOB,
        { organizationId: e.organizationId, eventId: e.eventId },
        {
          jobId: `waitlist-offer-expiry-${e.entryId}-${Date.parse(e.offeredUntil)}`,
          delayMs: Math.max(0, Date.parse(e.offeredUntil) - this.clock.nowMs()) + EXPIRY_GRACE_MS,
          attempts: 10,
          backoffMs: 30_000,
        },
      ),
    );
    this.queue.process(WAITLIST_QUEUE, async (job) => {
      if (job.name === EXPIRE_OFFERS_JOB) await this.expireOffers(job.data as ExpireOffersJob);
    });
    if (this.queue.runsWorkers)
      void this.queue
        .upsertScheduler<ExpireOffersJob>(
          WAITLIST_QUEUE,
          SWEEP_SCHEDULE,
          EXPIRE_OFFERS_JOB,
          {},
          { everyMs: SWEEP_EVERY_MS, attempts: 3, backoffMs: 10_000 },
        )
        .catch((error: Error) => this.logger.error(`The offers' sweep is not scheduled: ${error.message}`));
  }

  // ---- The store ----------------------------------------------------------------------------

  /**
   * Joins the waitlist of a sold-out session of the store (public). The same email on the same
   * session is one entry: joining again changes nothing, and answers exactly as a first join does
   * (issue 31: the store tells no one whether an email is waiting); the entry's owner is mailed
   * their place instead (once per entry). A session with a seat left takes no entry (409: book it
   * instead), whoever asks. Under the seat lock, so a seat freed at the same moment is either seen
   * here (409) or offered to this party.
   */
  async join(
    organizationId: string,
    eventId: string,
    input: WaitlistJoinPayload,
  ): Promise<WaitlistJoinResult> {
    const session = await waitlistSession(this.em.fork(), organizationId, eventId);
    if (
      !session ||
      !session.listed ||
      session.status !== 'active' ||
      new Date(session.starts_at).getTime() <= this.clock.nowMs()
    )
      throw sessionNotFound();
    if (input.party_size > session.capacity) {
      const message = M.partySize(session.capacity);
      throw new ApiError(HttpStatus.BAD_REQUEST, message, { party_size: message });
    }
    const email = input.email.toLowerCase();
    return this.em.fork().transactional(async (em) => {
      const locked = await lockEventForSeats(em, { organizationId }, eventId);
      if (locked.capacity - locked.seats > 0) throw new ApiError(HttpStatus.CONFLICT, M.hasSeats);
      const joined: WaitlistJoinResult = { status: 'joined', message: M.joined, party_size: input.party_size };
      const existing = await em.findOne(WaitlistEntry, {
        organizationId,
        eventId,
        email,
        status: { $in: [...ACTIVE] },
      });
      if (existing) {
        await this.events.publish(em, { type: 'waitlist.joined', organizationId, entryId: existing.id, eventId, again: true });
        return joined;
      }
      const [{ next }] = await em.execute<{ next: string }[]>(
        `select coalesce(max(position), 0) + 1 as next from waitlist_entry where event_id = ?`,
        [eventId],
      );
      const entry = em.create(WaitlistEntry, {
        organizationId,
        eventId,
        name: input.name,
        email,
        partySize: input.party_size,
        position: Number(next),
      });
      await em.flush();
      await this.events.publish(em, { type: 'waitlist.joined', organizationId, entryId: entry.id, eventId });
      return joined;
    });
  }

  /** The offer a claim link names (public): offered (with its end), claimed, or ended. Unknown tokens are 404. */
  async claimState(organizationId: string, token: string): Promise<WaitlistClaim> {
    const entry = await this.entryForToken(this.em.fork(), organizationId, token);
    if (!entry) throw new ApiError(HttpStatus.NOT_FOUND, M.offerNotFound);
    const hold = entry.holdId
      ? await this.seats.offerHoldState(this.em.fork(), organizationId, entry.holdId)
      : null;
    const status =
      entry.status === 'offered' && hold?.live ? 'offered' : entry.status === 'claimed' ? 'claimed' : 'ended';
    return {
      status,
      event_id: entry.eventId,
      party_size: entry.partySize,
      name: entry.name,
      email: entry.email,
      offered_until: status === 'offered' && entry.offeredUntil ? entry.offeredUntil.toISOString() : null,
      message: status === 'ended' ? M.offerEnded : null,
    };
  }

  /**
   * The store checkout of a claim link, in the checkout's transaction: the offer's hold becomes the
   * order's (EnrollmentsService.claimOfferHold, under the seat lock: no new hold, so the seats stay
   * the claimant's), the entry claimed. The party is the offer's. An offer that ended is 410.
   */
  async claimForCheckout(
    em: EntityManager,
    organizationId: string,
    input: {
      token: string;
      eventId: string;
      partySize: number;
      student: Student;
      orderId: string;
      expiresAt: Date;
    },
  ): Promise<HeldSeat> {
    const entryId = input.token.slice(0, 36);
    const [hasEntry] = await em.execute<{ event_id: string }[]>(
      `select event_id from waitlist_entry where id = ? and organization_id = ?`,
      [entryId, organizationId],
    );
    if (!hasEntry)
      throw new ApiError(HttpStatus.NOT_FOUND, M.offerNotFound, { claim_token: M.offerNotFound });
    if (hasEntry.event_id !== input.eventId)
      throw new ApiError(HttpStatus.BAD_REQUEST, M.claimOtherSession, { claim_token: M.claimOtherSession });
    // THE seat lock first (the order every seat change takes), then the entry.
    await lockEventForSeats(em, { organizationId }, input.eventId);
    const entry = await this.entryForToken(em, organizationId, input.token, true);
    if (!entry) throw new ApiError(HttpStatus.NOT_FOUND, M.offerNotFound, { claim_token: M.offerNotFound });
    if (entry.status !== 'offered' || !entry.holdId) throw offerEnded();
    if (input.partySize !== entry.partySize) {
      const message = M.claimParty(entry.partySize);
      throw new ApiError(HttpStatus.BAD_REQUEST, message, { party_size: message });
    }
    const held = await this.seats.claimOfferHold({ organizationId }, em, {
      holdId: entry.holdId,
      eventId: input.eventId,
      student: input.student,
      orderId: input.orderId,
      expiresAt: input.expiresAt,
      ended: offerEnded,
    });
    entry.status = 'claimed';
    entry.orderId = input.orderId;
    await em.flush();
    return held;
  }

  // ---- Offers -------------------------------------------------------------------------------

  /**
   * Seats came back in the session: offers them (offerInLock). `releasedFrom` names the waitlist
   * entry whose claimed hold was released (its checkout was abandoned or ran out): that claim has ended.
   */
  async offerFreeSeats(organizationId: string, eventId: string, releasedFrom: string | null = null): Promise<void> {
    await this.em.fork().transactional(async (em) => {
      let locked: LockedSeats;
      try {
        locked = await lockEventForSeats(em, { organizationId }, eventId);
      } catch {
        return; // the session is gone
      }
      if (releasedFrom) {
        const entry = await em.findOne(WaitlistEntry, { id: releasedFrom, organizationId, status: 'claimed' });
        if (entry) {
          entry.status = 'expired';
          await em.flush();
        }
      }
      await this.offerInLock(em, organizationId, locked);
    });
  }

  /**
   * The offer job (an offer's own expiry, or the sweep of every session with an offer out): offers
   * whose hold ran out are expired and their seats offered to the next parties that fit.
   */
  async expireOffers(job: ExpireOffersJob = {}): Promise<void> {
    const sessions = await this.em.fork().execute<{ organization_id: string; event_id: string }[]>(
      `select distinct organization_id, event_id from waitlist_entry
        where status = 'offered'${job.eventId ? ' and organization_id = ? and event_id = ?' : ''}`,
      job.eventId ? [job.organizationId, job.eventId] : [],
    );
    for (const s of sessions) await this.offerFreeSeats(s.organization_id, s.event_id);
  }

  /**
   * Under the session's seat lock (the caller holds it, `locked` read inside it): first the offers
   * whose hold ran out are expired (their hold ended), then the free seats (capacity minus every seat
   * taken or held) go to the waiting parties in order: each that fits is offered (a party too large
   * is skipped and keeps its place), until no seat is left. Answers the entries offered.
   */
  async offerInLock(
    em: EntityManager,
    organizationId: string,
    locked: LockedSeats,
  ): Promise<WaitlistEntry[]> {
    const ctx = { organizationId };
    const now = this.clock.nowMs();
    const entries = await em.find(
      WaitlistEntry,
      { organizationId, eventId: locked.eventId, status: { $in: [...ACTIVE] } },
      { orderBy: { position: 'asc' }, refresh: true },
    );
    for (const entry of entries.filter((e) => e.status === 'offered')) {
      const hold = entry.holdId ? await this.seats.offerHoldState(em, organizationId, entry.holdId) : null;
      if (hold?.live) continue;
      if (hold?.claimed) {
        entry.status = 'claimed'; // taken over by a checkout: its order settles it
        continue;
      }
      entry.status = 'expired';
      if (entry.holdId) await this.seats.endOfferHold(ctx, em, entry.holdId);
    }
    await em.flush();
    if (locked.status !== 'active' || locked.endsAt.getTime() <= now) return [];
    // The seats were read under the lock; an expired offer's hold had already stopped counting.
    let free = locked.capacity - locked.seats;
    const offered: WaitlistEntry[] = [];
    if (free <= 0) return offered;
    const session = await waitlistSession(em, organizationId, locked.eventId);
    if (!session || new Date(session.starts_at).getTime() <= now) return offered;
    for (const entry of entries) {
      if (free <= 0) break;
      if (entry.status !== 'waiting' || entry.partySize > free) continue;
      await this.offer(em, entry, session);
      free -= entry.partySize;
      offered.push(entry);
    }
    return offered;
  }

  /** One offer, under the seat lock: the seats held for the claim time, the token, the announcement. */
  async offer(em: EntityManager, entry: WaitlistEntry, session: WaitlistSessionRow): Promise<void> {
    const offeredAt = this.clock.now();
    const offeredUntil = new Date(offeredAt.getTime() + session.claim_hours * 3600_000);
    // Derived from the entry and this instant, never stored: only its hash is kept, and the mail derives it again.
    const token = await this.claimTokens.tokenFor(entry.id, offeredAt);
    entry.holdId = await this.seats.holdForOffer({ organizationId: entry.organizationId }, em, {
      eventId: entry.eventId,
      waitlistEntryId: entry.id,
      seats: entry.partySize,
      expiresAt: offeredUntil,
    });
    entry.status = 'offered';
    entry.offeredAt = offeredAt;
    entry.offeredUntil = offeredUntil;
    entry.claimTokenHash = WaitlistClaimTokens.hash(token);
    await em.flush();
    await this.events.publish(em, {
      type: 'waitlist.offered',
      organizationId: entry.organizationId,
      entryId: entry.id,
      eventId: entry.eventId,
      offeredUntil: offeredUntil.toISOString(),
    });
  }

  /**
   * session.cancelled: each waiting or offered party is mailed that the session was cancelled (once:
   * the mail's key), then their entries are removed (an offer's held seats ended) under the seat
   * lock. Mailed first, so a crash in between mails again under the same key rather than never; a
   * second delivery finds no entry left and does nothing.
   */
  private async closeForCancelledSession(
    organizationId: string,
    eventId: string,
    reason: string,
  ): Promise<void> {
    const em = this.em.fork();
    const open = await em.find(WaitlistEntry, { organizationId, eventId, status: { $in: [...ACTIVE] } });
    if (!open.length) return;
    const session = await waitlistSession(em, organizationId, eventId);
    if (!session) return;
    await this.mails.sessionCancelled(open, session, reason);
    await this.em.fork().transactional(async (tx) => {
      await lockEventForSeats(tx as EntityManager, { organizationId }, eventId);
      const entries = await tx.find(WaitlistEntry, { organizationId, eventId, status: { $in: [...ACTIVE] } });
      for (const entry of entries) {
        if (entry.status === 'offered' && entry.holdId)
          await this.seats.endOfferHold({ organizationId }, tx as EntityManager, entry.holdId);
        entry.status = 'removed';
      }
      await tx.flush();
    });
  }

  /** The entry a claim token names, its hash compared in constant time; null for none. */
  private async entryForToken(
    em: EntityManager,
    organizationId: string,
    token: string,
    lock = false,
  ): Promise<WaitlistEntry | null> {
    const id = token.slice(0, 36);
    if (!/^[0-9a-f-]{36}$/.test(id)) return null;
    const entry = await em.findOne(
      WaitlistEntry,
      { id, organizationId },
      lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {},
    );
    if (!WaitlistClaimTokens.matches(entry?.claimTokenHash, token)) return null;
    return entry;
  }
}
