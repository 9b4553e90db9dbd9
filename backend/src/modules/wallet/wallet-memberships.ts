import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { UNLIMITED_BOOKINGS } from '@studio/contracts';
import { Clock } from '../../common/clock';
import { WalletReadModel } from './wallet-read-model';
import { appendEntry, changeByKey, grantIn, inTransaction, lockStudent, membershipHolding, walletInvalid, WalletChange, zeroOut } from './wallet-ledger';

/*
 * A membership's holding as its subscription lives (issue 24; split out of WalletService in issue
 * 33): a billing period starts or renews it, a lapse ends it. Each change is once per its key, under
 * the student's wallet lock, written through the ledger's primitives (wallet-ledger.ts).
 */

/** A membership's period as its subscription has it (start or renewal). */
export interface MembershipPeriod {
  organizationId: string;
  studentId: string;
  subscriptionId: string;
  label: string;
  /** Bookings a period; ignored when unlimited. */
  bookings: number;
  unlimited: boolean;
  coversActivityIds: string[] | null;
  coversCategoryIds: number[] | null;
  productId?: string | null;
  orderId?: string | null;
  /** The period's end: the holding covers bookings until then. */
  periodEnd: Date;
}

@Injectable()
export class WalletMemberships {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
    private readonly reads: WalletReadModel,
  ) {}

  /**
   * A membership's billing period (issue 24): the first one creates the subscription's holding (one
   * per subscription) with the period's bookings (UNLIMITED_BOOKINGS when unlimited) until its end;
   * a later one (a renewal) ends what was left of the last period (an `expire` row, "The period
   * ended"), grants the period's bookings again and moves expires_at to the new end, active again
   * (the sweep may have expired it at the old end before the renewal came). Once per period end (its
   * key); a period that does not end later than the holding's changes nothing (an event out of
   * order). Answers the grant, or null when nothing was written.
   */
  async period(m: MembershipPeriod, em?: EntityManager): Promise<WalletChange | null> {
    const amount = m.unlimited ? UNLIMITED_BOOKINGS : m.bookings;
    if (!Number.isInteger(amount) || amount <= 0) throw walletInvalid('grantAmountInvalid', 'amount');
    const key = `membership:${m.subscriptionId}:period:${m.periodEnd.toISOString()}`;
    return this.run(em, async (tx) => {
      await lockStudent(tx, m.studentId);
      const repeat = await changeByKey(tx, m.organizationId, key);
      if (repeat) return repeat;
      const holding = await membershipHolding(tx, m.organizationId, m.subscriptionId);
      if (!holding)
        return grantIn(
          tx,
          {
            organizationId: m.organizationId,
            studentId: m.studentId,
            kind: 'membership',
            label: m.label,
            amount,
            unlimited: m.unlimited,
            coversActivityIds: m.coversActivityIds,
            coversCategoryIds: m.coversCategoryIds,
            subscriptionId: m.subscriptionId,
            productId: m.productId ?? undefined,
            orderId: m.orderId ?? undefined,
            expiresAt: m.periodEnd,
            key,
            note: 'The membership started',
          },
          this.clock.now(),
        );
      if (holding.expires_at && m.periodEnd <= new Date(holding.expires_at)) return null;
      await zeroOut(tx, holding, {
        organizationId: m.organizationId,
        note: 'The period ended',
        key: `membership:${m.subscriptionId}:ended:${holding.expires_at ? new Date(holding.expires_at).toISOString() : 'start'}`,
      });
      await tx.execute(`update wallet_holding set expires_at = ?, status = 'active' where id = ?`, [m.periodEnd, holding.id]);
      return appendEntry(tx, {
        organizationId: m.organizationId,
        studentId: holding.student_id,
        holdingId: holding.id,
        amount,
        // What was left was zeroed just above (a balance is never below zero).
        balanceAfter: amount,
        reason: 'grant',
        orderId: m.orderId ?? undefined,
        note: 'A new period',
        key,
      });
    });
  }

  /**
   * A membership's subscription lapsed (cancelled, expired, a failed renewal): its holding expires
   * now, once: what is left is zeroed ("The membership ended") and it covers no new booking; the
   * bookings it paid for stay. Answers whether it ended it now (false: none, or ended already).
   */
  async end(r: { organizationId: string; subscriptionId: string; now?: Date }, em?: EntityManager): Promise<boolean> {
    const now = r.now ?? this.clock.now();
    const studentId = await this.reads.studentOfHolding(r.organizationId, { subscriptionId: r.subscriptionId }, em);
    if (!studentId) return false;
    return this.run(em, async (tx) => {
      await lockStudent(tx, studentId);
      const holding = await membershipHolding(tx, r.organizationId, r.subscriptionId);
      if (!holding || holding.status === 'expired') return false;
      await zeroOut(tx, holding, { organizationId: r.organizationId, note: 'The membership ended', key: `membership:${r.subscriptionId}:lapsed` });
      await tx.execute(
        `update wallet_holding set status = 'expired', expires_at = least(coalesce(expires_at, ?), ?) where id = ?`,
        [now, now, holding.id],
      );
      return true;
    });
  }

  private run<T>(em: EntityManager | undefined, fn: (tx: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.em, em, fn);
  }
}
