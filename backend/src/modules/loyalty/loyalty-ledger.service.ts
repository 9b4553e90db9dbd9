import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  CHECKOUT_MESSAGES,
  LOYALTY_BALANCE_MESSAGES,
  type LoyaltyEntry,
  type LoyaltyReason,
} from '@studio/contracts';
import { ApiError } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { actorName, ActorNameColumns, actorNameSql } from '../identity/actor-name';
import { LoyaltyService } from './loyalty.service';

/** How many entries the student drawer shows (the first is the current balance). */
export const LEDGER_ENTRIES_SHOWN = 10;

type EntryRow = {
  id: string;
  balance: number;
  points: number;
  reason: LoyaltyReason;
  order_id: string | null;
  created_at: Date;
} & ActorNameColumns;

/**
 * Students' points as a ledger. Every change of one student's balance runs under one transaction
 * lock per student (pg_advisory_xact_lock), reads the last balance inside it and appends an entry
 * with the new balance, so concurrent changes never lose one another.
 */
@Injectable()
export class LoyaltyLedgerService {
  constructor(
    private readonly em: EntityManager,
    private readonly loyalty: LoyaltyService,
  ) {}

  /**
   * The newest entries of a student, newest first; the first is the current balance. The admins'
   * names come from the read-only join to app_user of identity/actor-name, in this one query.
   */
  async entries(
    organizationId: string,
    studentId: string,
    limit = LEDGER_ENTRIES_SHOWN,
  ): Promise<LoyaltyEntry[]> {
    const actor = actorNameSql('e.actor_user_id');
    const rows = await this.em.getConnection().execute<EntryRow[]>(
      `select e.id, e.balance, e.points, e.reason, e.order_id, ${actor.columns}, e.created_at
         from loyalty_entry e ${actor.join}
        where e.organization_id = ? and e.student_id = ?
        order by e.created_at desc, e.id desc limit ?`,
      [organizationId, studentId, limit],
    );
    return rows.map((r) => ({
      entry_id: r.id,
      balance: Number(r.balance),
      points: Number(r.points),
      reason: r.reason,
      order_id: r.order_id,
      actor: actorName(r),
      created_at: new Date(r.created_at).toISOString(),
    }));
  }

  /**
   * Sets a student's balance (spec 001 §7 loyalty-balance/set): refused when the programme is not
   * active; an entry records the difference (none when the balance is already that).
   * The caller has checked that the student belongs to the organization.
   */
  async setBalance(ctx: RequestContext, studentId: string, amount: number): Promise<LoyaltyEntry[]> {
    if (!(await this.loyalty.isActive(ctx.organizationId)))
      throw new ApiError(HttpStatus.CONFLICT, LOYALTY_BALANCE_MESSAGES.notActive);
    await this.em.transactional(async (em) => {
      const current = await this.lockedBalance(em, ctx.organizationId, studentId);
      if (current === amount) return;
      await this.append(em, {
        organizationId: ctx.organizationId,
        studentId,
        points: amount - current,
        balance: amount,
        reason: 'adjusted',
        actorUserId: ctx.userId,
      });
    });
    return this.entries(ctx.organizationId, studentId);
  }

  /**
   * Points earned by a paid order: once per order, however often the payment is announced (the
   * partial unique index on order and reason makes a repeat a no-op). Answers whether it credited.
   */
  async earnForOrder(
    organizationId: string,
    studentId: string,
    orderId: string,
    points: number,
  ): Promise<boolean> {
    if (points <= 0) return false;
    return this.em.transactional(async (em) => {
      const current = await this.lockedBalance(em, organizationId, studentId);
      return this.append(em, {
        organizationId,
        studentId,
        points,
        balance: current + points,
        reason: 'earned',
        orderId,
      });
    });
  }

  /**
   * A full refund takes back what the order earned; the balance never goes below 0 (points already
   * spent stay spent). Only while the points are not taken back already, and once per refund
   * (`refundId`, its row in the order's refunds ledger: the unique index on order, reason and
   * refund makes a repeat a no-op): after a failed refund gave them back, the next full refund takes
   * them again. Answers whether it debited.
   */
  async reverseForOrder(organizationId: string, studentId: string, orderId: string, refundId?: string): Promise<boolean> {
    return this.em.transactional(async (em) => {
      const current = await this.lockedBalance(em, organizationId, studentId);
      const order = await this.orderPoints(em, organizationId, orderId);
      if (order.earned === null || order.takenBack !== null) return false;
      const taken = Math.min(order.earned, current);
      return this.append(em, {
        organizationId,
        studentId,
        points: -taken,
        balance: current - taken,
        reason: 'refund_reversal',
        orderId,
        refundId,
      });
    });
  }

  /** A student's balance now (the last entry's), for display: a change reads it again under the lock. */
  async balance(organizationId: string, studentId: string): Promise<number> {
    const [last] = await this.em.getConnection().execute<{ balance: number }[]>(
      `select balance from loyalty_entry where organization_id = ? and student_id = ? order by created_at desc, id desc limit 1`,
      [organizationId, studentId],
    );
    return last ? Number(last.balance) : 0;
  }

  /**
   * Points spent on a store order, in the caller's transaction (the checkout's): under the student's
   * lock, the balance read inside it must cover them, or 409 and the transaction (the whole
   * checkout) rolls back. Once per order (the once-per-order index).
   */
  async redeemForOrder(
    em: EntityManager,
    organizationId: string,
    studentId: string,
    orderId: string,
    points: number,
  ): Promise<void> {
    if (points <= 0) return;
    const current = await this.lockedBalance(em, organizationId, studentId);
    if (points > current) {
      const message = CHECKOUT_MESSAGES.pointsInsufficient(current);
      throw new ApiError(HttpStatus.CONFLICT, message, { redeem_points: message });
    }
    await this.append(em, {
      organizationId,
      studentId,
      points: -points,
      balance: current - points,
      reason: 'redeemed',
      orderId,
    });
  }

  /** The points an order redeemed (0: none), read from its `redeemed` entry. */
  async redeemedForOrder(organizationId: string, orderId: string): Promise<number> {
    const [row] = await this.em.getConnection().execute<{ points: number }[]>(
      `select points from loyalty_entry where organization_id = ? and order_id = ? and reason = 'redeemed'`,
      [organizationId, orderId],
    );
    return row ? -Number(row.points) : 0;
  }

  /**
   * The points an order redeemed are given back (redemption_returned) when the order fails or is
   * refunded in full: once per order however often that is announced (the once-per-order index makes
   * a repeat a no-op). Answers whether it credited.
   */
  async returnRedemption(organizationId: string, orderId: string): Promise<boolean> {
    const [redeemed] = await this.em.getConnection().execute<{ student_id: string; points: number }[]>(
      `select student_id, points from loyalty_entry where organization_id = ? and order_id = ? and reason = 'redeemed'`,
      [organizationId, orderId],
    );
    if (!redeemed) return false;
    return this.em.fork().transactional(async (em) => {
      const current = await this.lockedBalance(em, organizationId, redeemed.student_id);
      // What part-refunds gave back already (returnRedemptionPart) is not given twice.
      const points = -Number(redeemed.points) - (await this.returnedSoFar(em, organizationId, orderId));
      if (points <= 0) return false;
      return this.append(em, {
        organizationId,
        studentId: redeemed.student_id,
        points,
        balance: current + points,
        reason: 'redemption_returned',
        orderId,
      });
    });
  }

  /**
   * Part of a booking's price was refunded by its cancellation policy (issue 23): `share` of the
   * points the order redeemed come back (rounded down), once per refund (`refundId`: the unique
   * index on order, reason and refund makes a repeat a no-op), never more than is left to give back.
   */
  async returnRedemptionPart(organizationId: string, orderId: string, refundId: string, share: number): Promise<boolean> {
    const [redeemed] = await this.em.getConnection().execute<{ student_id: string; points: number }[]>(
      `select student_id, points from loyalty_entry where organization_id = ? and order_id = ? and reason = 'redeemed'`,
      [organizationId, orderId],
    );
    if (!redeemed || !(share > 0)) return false;
    return this.em.fork().transactional(async (em) => {
      const current = await this.lockedBalance(em, organizationId, redeemed.student_id);
      const total = -Number(redeemed.points);
      const points = Math.min(Math.floor(total * Math.min(1, share)), total - (await this.returnedSoFar(em, organizationId, orderId)));
      if (points <= 0) return false;
      return this.append(em, {
        organizationId,
        studentId: redeemed.student_id,
        points,
        balance: current + points,
        reason: 'redemption_returned',
        orderId,
        refundId,
      });
    });
  }

  private async returnedSoFar(em: EntityManager, organizationId: string, orderId: string): Promise<number> {
    const [row] = await em.execute<{ points: string | null }[]>(
      `select sum(points) as points from loyalty_entry where organization_id = ? and order_id = ? and reason = 'redemption_returned'`,
      [organizationId, orderId],
    );
    return Number(row?.points ?? 0);
  }

  /**
   * The refund that took the order's points back failed at the payment provider (the money stayed
   * with the studio): what its reversal took is given back, once per failed refund (`refundId`, its
   * row in the order's refunds ledger), and only while the points are taken back. Answers whether it
   * credited.
   */
  async restoreForOrder(organizationId: string, studentId: string, orderId: string, refundId: string): Promise<boolean> {
    return this.em.transactional(async (em) => {
      const current = await this.lockedBalance(em, organizationId, studentId);
      const { takenBack } = await this.orderPoints(em, organizationId, orderId);
      if (takenBack === null) return false;
      return this.append(em, {
        organizationId,
        studentId,
        points: takenBack,
        balance: current + takenBack,
        reason: 'refund_failed',
        orderId,
        refundId,
      });
    });
  }

  /**
   * What an order earned (null: nothing), and what its last reversal took back while no failed
   * refund has given it back since (null: its points are not taken back). Read under the student's lock.
   */
  private async orderPoints(em: EntityManager, organizationId: string, orderId: string): Promise<{ earned: number | null; takenBack: number | null }> {
    const rows = await em.execute<{ reason: LoyaltyReason; points: number }[]>(
      `select reason, points from loyalty_entry
        where organization_id = ? and order_id = ? and reason in ('earned', 'refund_reversal', 'refund_failed')
        order by created_at, id`,
      [organizationId, orderId],
    );
    const earned = rows.find((r) => r.reason === 'earned');
    const last = rows.filter((r) => r.reason !== 'earned').at(-1);
    return {
      earned: earned ? Number(earned.points) : null,
      takenBack: last?.reason === 'refund_reversal' ? -Number(last.points) : null,
    };
  }

  /** Takes the student's ledger lock for this transaction and reads the balance inside it. */
  private async lockedBalance(em: EntityManager, organizationId: string, studentId: string): Promise<number> {
    await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 7))`, [`loyalty:${studentId}`]);
    const [last] = await em.execute<{ balance: number }[]>(
      `select balance from loyalty_entry where organization_id = ? and student_id = ? order by created_at desc, id desc limit 1`,
      [organizationId, studentId],
    );
    return last ? Number(last.balance) : 0;
  }

  private async append(
    em: EntityManager,
    e: {
      organizationId: string;
      studentId: string;
      points: number;
      balance: number;
      reason: LoyaltyReason;
      orderId?: string;
      refundId?: string;
      actorUserId?: string;
    },
  ): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>(
      `insert into loyalty_entry (id, organization_id, student_id, points, balance, reason, order_id, refund_id, actor_user_id, created_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, clock_timestamp())
       on conflict do nothing returning id`,
      [
        e.organizationId,
        e.studentId,
        e.points,
        e.balance,
        e.reason,
        e.orderId ?? null,
        e.refundId ?? null,
        e.actorUserId ?? null,
      ],
    );
    return rows.length > 0;
  }
}
