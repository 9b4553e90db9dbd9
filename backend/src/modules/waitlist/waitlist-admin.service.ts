import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { WAITLIST_MESSAGES as M, type WaitlistEntry as WaitlistEntryOut } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { LockedSeats, lockEventForSeats } from '../scheduling/seats';
import { WaitlistEntry } from './waitlist-entry.entity';
import { waitlistSession } from './waitlist-session.query';
import { WaitlistService } from './waitlist.service';
import { Clock } from '../../common/clock';

const ACTIVE = ['waiting', 'offered'] as const;

/**
 * The event drawer's waitlist (issue 23): a session's entries in order, and the admin's remove,
 * move up or down and "Offer the seat", each in one transaction under the session's seat lock then
 * the entry's; the offers themselves are WaitlistService's (the same as when seats free up).
 */
@Injectable()
export class WaitlistAdminService {
  constructor(
    private readonly em: EntityManager,
    private readonly seats: EnrollmentsService,
    private readonly offers: WaitlistService,
    private readonly clock: Clock,
  ) {}

  /** The session's waitlist in order (another organization's session is 404). */
  async list(
    ctx: Pick<RequestContext, 'organizationId'>,
    eventId: string,
  ): Promise<{ entries: WaitlistEntryOut[] }> {
    const em = this.em.fork();
    const [event] = await em.execute<{ id: string }[]>(
      `select id from event where id = ? and organization_id = ?`,
      [eventId, ctx.organizationId],
    );
    if (!event) throw notFound('Event not found');
    const entries = await em.find(
      WaitlistEntry,
      { organizationId: ctx.organizationId, eventId },
      { orderBy: { position: 'asc' } },
    );
    return { entries: entries.map(mapEntry) };
  }

  /**
   * Takes an entry off the waitlist. An offered entry's seats are freed and offered to the next
   * parties that fit, in the same transaction under the seat lock. Removing it again changes nothing.
   */
  async remove(
    ctx: Pick<RequestContext, 'organizationId'>,
    entryId: string,
  ): Promise<{ entries: WaitlistEntryOut[] }> {
    const eventId = await this.withEntry(ctx, entryId, async (em, entry, locked) => {
      if (entry.status !== 'waiting' && entry.status !== 'offered') return;
      const wasOffered = entry.status === 'offered';
      if (wasOffered && entry.holdId) await this.seats.endOfferHold(ctx, em, entry.holdId);
      entry.status = 'removed';
      await em.flush();
      // Its held seats count no more: the lock's reading of the seats is out of date by them.
      if (wasOffered)
        await this.offers.offerInLock(em, ctx.organizationId, await lockEventForSeats(em, ctx, locked.eventId));
    });
    return this.list(ctx, eventId);
  }

  /** Moves a waiting or offered entry one place up or down among those still waiting or offered (409 at the end). */
  async move(
    ctx: Pick<RequestContext, 'organizationId'>,
    entryId: string,
    direction: 'up' | 'down',
  ): Promise<{ entries: WaitlistEntryOut[] }> {
    const eventId = await this.withEntry(ctx, entryId, async (em, entry) => {
      if (entry.status !== 'waiting' && entry.status !== 'offered')
        throw new ApiError(HttpStatus.CONFLICT, M.notActive);
      const line = await em.find(
        WaitlistEntry,
        { organizationId: ctx.organizationId, eventId: entry.eventId, status: { $in: [...ACTIVE] } },
        { orderBy: { position: 'asc' } },
      );
      const at = line.findIndex((e) => e.id === entry.id);
      const other = line[direction === 'up' ? at - 1 : at + 1];
      if (!other) throw new ApiError(HttpStatus.CONFLICT, M.cannotMove);
      [entry.position, other.position] = [other.position, entry.position];
      await em.flush();
    });
    return this.list(ctx, eventId);
  }

  /**
   * "Offer the seat" now to a waiting entry, by the same offer as the automatic one. Refused (409)
   * when the entry is not waiting, or when the seats it needs are not free.
   */
  async offerNow(
    ctx: Pick<RequestContext, 'organizationId'>,
    entryId: string,
  ): Promise<{ entries: WaitlistEntryOut[] }> {
    const eventId = await this.withEntry(ctx, entryId, async (em, entry, locked) => {
      if (entry.status !== 'waiting') throw new ApiError(HttpStatus.CONFLICT, M.notWaiting);
      const session = await waitlistSession(em, ctx.organizationId, entry.eventId);
      if (
        !session ||
        locked.status !== 'active' ||
        locked.endsAt.getTime() <= this.clock.nowMs() ||
        new Date(session.starts_at).getTime() <= this.clock.nowMs()
      )
        throw new ApiError(HttpStatus.CONFLICT, M.finished);
      if (locked.capacity - locked.seats < entry.partySize)
        throw new ApiError(HttpStatus.CONFLICT, M.seatsNotFree);
      await this.offers.offer(em, entry, session);
    });
    return this.list(ctx, eventId);
  }

  /** An entry of the organization (404 otherwise), locked after its session's seat lock, in one transaction. */
  private async withEntry(
    ctx: Pick<RequestContext, 'organizationId'>,
    entryId: string,
    change: (em: EntityManager, entry: WaitlistEntry, locked: LockedSeats) => Promise<void>,
  ): Promise<string> {
    return this.em.fork().transactional(async (em) => {
      const [found] = await em.execute<{ event_id: string }[]>(
        `select event_id from waitlist_entry where id = ? and organization_id = ?`,
        [entryId, ctx.organizationId],
      );
      if (!found) throw notFound(M.entryNotFound);
      const locked = await lockEventForSeats(em, ctx, found.event_id);
      const entry = await em.findOneOrFail(
        WaitlistEntry,
        { id: entryId, organizationId: ctx.organizationId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      await change(em, entry, locked);
      return found.event_id;
    });
  }
}

function mapEntry(entry: WaitlistEntry): WaitlistEntryOut {
  return {
    entry_id: entry.id,
    name: entry.name,
    email: entry.email,
    party_size: entry.partySize,
    joined_at: entry.createdAt.toISOString(),
    status: entry.status,
    offered_until: entry.status === 'offered' && entry.offeredUntil ? entry.offeredUntil.toISOString() : null,
  };
}
