import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  hasControlCharacters,
  MAX_WALLET_AMOUNT,
  MAX_WALLET_NOTE_LENGTH,
  STORE_CREDIT_HOLDING_LABEL,
  WALLET_ENTRIES_SHOWN,
  WALLET_MESSAGES,
  type BookingUseRow,
  type CoveringHolding,
  type Wallet,
  type WalletHoldingStatus,
  type WalletUnit,
} from '@studio/contracts';
import { Clock } from '../../common/clock';
import { refusalStatus } from '../../common/domain-error';
import { RequestContext } from '../../common/request-context';
import { MembershipPeriod, WalletMemberships } from './wallet-memberships';
import { WalletReadModel } from './wallet-read-model';
import {
  appendEntry,
  balanceOf,
  changeByKey,
  grantIn,
  inTransaction,
  holdingIn,
  holdingOfStudent,
  isExpired,
  lockStudent,
  walletConflict,
  walletInvalid,
  walletNotFound,
  WalletChange,
  WalletGrant,
  zeroOut,
} from './wallet-ledger';

export type { WalletChange, WalletGrant } from './wallet-ledger';
export type { MembershipPeriod } from './wallet-memberships';

/** A use of a holding for one booking (an enrollment or an appointment) or for an order (gift card, credit). */
export interface WalletUse {
  organizationId: string;
  studentId: string;
  holdingId: string;
  /** 1 credit or booking by default; cents for money. */
  amount?: number;
  enrollmentId?: string;
  appointmentId?: string;
  orderId?: string;
  actorUserId?: string;
  note?: string;
  /** The instant the use happens at (tests and replays); now by default. */
  at?: Date;
}

/**
 * What a student holds (memberships, class packs, gift cards, store credit) as one ledger per
 * student (issue 24), and the one door other modules change it through. Every change runs in one
 * transaction under the student's lock (pg_advisory_xact_lock), reads the holding's balance inside
 * it and appends a row with the balance after it (wallet-ledger.ts), so a balance is always the sum
 * of its rows and never below zero (a check says so too). A change another module makes inside its
 * own transaction (a store checkout) passes its `em`; otherwise the change runs in a transaction of
 * its own. Refused changes write nothing and raise a DomainError. Memberships' periods live in
 * WalletMemberships, the reads in WalletReadModel; this service hands them on.
 */
@Injectable()
export class WalletService {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
    private readonly reads: WalletReadModel,
    private readonly memberships: WalletMemberships,
  ) {}

  /** Creates a holding with its first grant, or tops one up. Once per `key`. */
  async grant(g: WalletGrant, em?: EntityManager): Promise<WalletChange> {
    return this.run(em, (tx) => grantIn(tx, g, this.clock.now()));
  }

  /**
   * Uses a holding: refused (409 with the message) when it is another student's, has expired or
   * holds too little. A booking uses once (the same enrollment or appointment again answers its
   * first use); an order uses each holding once.
   */
  async use(u: WalletUse, em?: EntityManager): Promise<WalletChange> {
    const amount = u.amount ?? 1;
    if (!Number.isInteger(amount) || amount <= 0 || amount > MAX_WALLET_AMOUNT) throw walletInvalid('amountInvalid', 'amount');
    const key = u.enrollmentId
      ? `use:enrollment:${u.enrollmentId}`
      : u.appointmentId
        ? `use:appointment:${u.appointmentId}`
        : u.orderId
          ? `use:order:${u.orderId}:${u.holdingId}`
          : null;
    if (!key) throw new Error('A use names its booking (enrollment or appointment) or its order');
    return this.run(em, async (tx) => {
      await lockStudent(tx, u.studentId);
      const repeat = await changeByKey(tx, u.organizationId, key);
      if (repeat) return repeat;
      const holding = await holdingIn(tx, u.organizationId, u.holdingId);
      if (holding.student_id !== u.studentId) throw walletConflict('notStudents');
      if (isExpired(holding, u.at ?? this.clock.now())) throw walletConflict('expired');
      const balance = await balanceOf(tx, holding.id);
      if (balance < amount) throw walletConflict('notEnough', WALLET_MESSAGES.notEnough[holding.unit]);
      return appendEntry(tx, {
        organizationId: u.organizationId,
        studentId: u.studentId,
        holdingId: holding.id,
        amount: -amount,
        balanceAfter: balance - amount,
        reason: 'use',
        orderId: u.orderId,
        enrollmentId: u.enrollmentId,
        appointmentId: u.appointmentId,
        actorUserId: u.actorUserId,
        note: u.note,
        key,
      });
    });
  }

  /**
   * Gives a use back (a cancellation inside the policy), once: a repeat answers the first return.
   * Refused with 409 when the holding has expired since (what it held is gone).
   */
  async returnUse(
    r: { organizationId: string; useEntryId: string; actorUserId?: string; note?: string },
    em?: EntityManager,
  ): Promise<WalletChange> {
    const use = await this.reads.useEntry(r.organizationId, r.useEntryId, em);
    if (!use) throw walletNotFound('useNotFound');
    return this.run(em, async (tx) => {
      await lockStudent(tx, use.student_id);
      const key = `return:${use.id}`;
      const repeat = await changeByKey(tx, r.organizationId, key);
      if (repeat) return repeat;
      const holding = await holdingIn(tx, r.organizationId, use.holding_id);
      if (isExpired(holding, this.clock.now())) throw walletConflict('expired');
      const balance = await balanceOf(tx, holding.id);
      const amount = -Number(use.amount);
      return appendEntry(tx, {
        organizationId: r.organizationId,
        studentId: use.student_id,
        holdingId: holding.id,
        amount,
        balanceAfter: balance + amount,
        reason: 'return',
        orderId: use.order_id ?? undefined,
        enrollmentId: use.enrollment_id ?? undefined,
        appointmentId: use.appointment_id ?? undefined,
        returnsEntryId: use.id,
        actorUserId: r.actorUserId,
        note: r.note,
        key,
      });
    });
  }

  /**
   * At or after its expires_at, a holding expires once: what is left is zeroed by an `expire` row
   * (none when nothing is left) and it takes no more uses. Answers whether it expired it now
   * (false: no expiry set, not due yet, or expired already).
   */
  async expire(r: { organizationId: string; holdingId: string; now?: Date }, em?: EntityManager): Promise<boolean> {
    const now = r.now ?? this.clock.now();
    const studentId = await this.reads.studentOfHolding(r.organizationId, { holdingId: r.holdingId }, em);
    if (!studentId) throw walletNotFound('holdingNotFound');
    return this.run(em, async (tx) => {
      await lockStudent(tx, studentId);
      const holding = await holdingIn(tx, r.organizationId, r.holdingId);
      if (holding.status === 'expired' || !holding.expires_at || now < new Date(holding.expires_at)) return false;
      // Per expiry instant: a membership's holding expires at a period's end and may be renewed after it.
      await zeroOut(tx, holding, { organizationId: r.organizationId, key: `expire:${holding.id}:${new Date(holding.expires_at).toISOString()}` });
      await tx.execute(`update wallet_holding set status = 'expired' where id = ?`, [holding.id]);
      return true;
    });
  }

  /** Expires every holding due at `now` (for a periodic sweep); answers how many it expired. */
  async expireDue(now = this.clock.now()): Promise<number> {
    let expired = 0;
    for (const h of await this.reads.dueToExpire(now)) if (await this.expire({ organizationId: h.organization_id, holdingId: h.id, now })) expired++;
    return expired;
  }

  /**
   * An owner's (or super admin's) signed change with its reason. 404 unless the holding is the
   * student's in the caller's organization; 409 when it has expired or would go below zero.
   */
  async adjust(ctx: RequestContext, studentId: string, holdingId: string, input: { amount: number; reason: string }): Promise<WalletChange> {
    const note = typeof input.reason === 'string' ? input.reason.trim() : '';
    if (!note) throw walletInvalid('reasonRequired', 'reason');
    if (note.length > MAX_WALLET_NOTE_LENGTH) throw walletInvalid('reasonTooLong', 'reason');
    if (hasControlCharacters(note)) throw walletInvalid('controlCharacters', 'reason');
    if (!Number.isInteger(input.amount) || input.amount === 0) throw walletInvalid('amountInvalid', 'amount');
    if (Math.abs(input.amount) > MAX_WALLET_AMOUNT) throw walletInvalid('amountTooLarge', 'amount');
    return this.run(undefined, async (tx) => {
      await lockStudent(tx, studentId);
      const holding = await holdingOfStudent(tx, ctx.organizationId, studentId, holdingId);
      if (isExpired(holding, this.clock.now())) throw walletConflict('expired');
      const balance = await balanceOf(tx, holding.id);
      if (balance + input.amount < 0) throw walletConflict('belowZero');
      return appendEntry(tx, {
        organizationId: ctx.organizationId,
        studentId,
        holdingId: holding.id,
        amount: input.amount,
        balanceAfter: balance + input.amount,
        reason: 'adjust',
        actorUserId: ctx.userId || undefined,
        note,
      });
    });
  }

  /**
   * Adds `amount` cents to the student's one active store-credit holding (created the first time,
   * labelled "Store credit"), once per `key` (`refund:<refundId>`), under the student's lock.
   */
  async grantStoreCredit(
    g: { organizationId: string; studentId: string; amount: number; key: string; orderId?: string; actorUserId?: string; note?: string },
    em?: EntityManager,
  ): Promise<WalletChange> {
    return this.run(em, async (tx) => {
      await lockStudent(tx, g.studentId);
      const repeat = await changeByKey(tx, g.organizationId, g.key);
      if (repeat) return repeat;
      const now = this.clock.now();
      const [holding] = await tx.execute<{ id: string }[]>(
        `select id from wallet_holding
          where organization_id = ? and student_id = ? and kind = 'store_credit' and status = 'active'
            and (expires_at is null or expires_at > ?)
          order by created_at, id limit 1`,
        [g.organizationId, g.studentId, now],
      );
      return grantIn(
        tx,
        {
          organizationId: g.organizationId,
          studentId: g.studentId,
          kind: 'store_credit',
          label: STORE_CREDIT_HOLDING_LABEL,
          amount: g.amount,
          holdingId: holding?.id,
          orderId: g.orderId,
          key: g.key,
          actorUserId: g.actorUserId,
          note: g.note,
        },
        now,
      );
    });
  }

  /**
   * Gives back the use that covered a booking (a cancellation that returns it), in `em`'s transaction
   * when given. Answers 'returned' (now or before: returnUse is once per use), 'none' (no use covered
   * it) or 'expired' (its holding expired since: what it held is gone).
   */
  async returnBookingUse(
    organizationId: string,
    booking: { enrollmentId?: string | null; appointmentId?: string | null },
    by: { actorUserId?: string; note?: string } = {},
    em?: EntityManager,
  ): Promise<'returned' | 'none' | 'expired'> {
    const use = await this.reads.useOfBooking(organizationId, booking, em);
    if (!use) return 'none';
    if (use.returned) return 'returned';
    if (use.expired) return 'expired';
    await this.returnUse({ organizationId, useEntryId: use.entry_id, actorUserId: by.actorUserId, note: by.note }, em);
    return 'returned';
  }

  /**
   * Gives back every use of an order that ended unpaid (order.failed: its payment page expired or
   * could not start): once each (returnUse's key), so a repeated announcement changes nothing. A use
   * of a holding that expired meanwhile stays used (what it held is gone).
   */
  async returnUsesOfOrder(organizationId: string, orderId: string): Promise<number> {
    let returned = 0;
    for (const use of await this.usesOfOrder(organizationId, orderId)) {
      try {
        const change = await this.returnUse({ organizationId, useEntryId: use.entryId, note: 'The order ended unpaid' });
        if (change.created) returned++;
      } catch (error) {
        if (refusalStatus(error) !== 409) throw error;
      }
    }
    return returned;
  }

  /** Takes the student's wallet lock in the caller's transaction (before reading `covering` to plan uses). */
  async lock(em: EntityManager, studentId: string): Promise<void> {
    await lockStudent(em, studentId);
  }

  // Memberships (wallet-memberships.ts).

  /** A membership's billing period: WalletMemberships.period. */
  membershipPeriod(m: MembershipPeriod, em?: EntityManager): Promise<WalletChange | null> {
    return this.memberships.period(m, em);
  }

  /** A membership's subscription lapsed: WalletMemberships.end. */
  endMembership(r: { organizationId: string; subscriptionId: string; now?: Date }, em?: EntityManager): Promise<boolean> {
    return this.memberships.end(r, em);
  }

  // Reads (wallet-read-model.ts).

  /** A student's holdings (newest first) with their balances, and the newest ledger rows. The caller checked the student. */
  wallet(organizationId: string, studentId: string, limit = WALLET_ENTRIES_SHOWN): Promise<Wallet> {
    return this.reads.wallet(organizationId, studentId, limit);
  }

  /**
   * The student's usable holdings as planWalletPayment reads them. Inside a change (`em` given) call
   * `lock` first so the balances cannot move before the uses are written.
   */
  covering(organizationId: string, studentId: string, em?: EntityManager): Promise<(CoveringHolding & { label: string; unlimited: boolean; unit: WalletUnit })[]> {
    return this.reads.holdings(organizationId, studentId, { activeOnly: true }, em);
  }

  /** The holding a gift card's code names (by the code's hash), with its balance; null when none. */
  giftCardByCodeHash(
    organizationId: string,
    codeHash: string,
    em?: EntityManager,
  ): Promise<{ holdingId: string; studentId: string; balance: number; status: WalletHoldingStatus; expiresAt: Date | null } | null> {
    return this.reads.giftCardByCodeHash(organizationId, codeHash, em);
  }

  /** An order's uses not given back (what paid it from holdings), oldest first, with the holding's label and unit. */
  async usesOfOrder(organizationId: string, orderId: string, em?: EntityManager): Promise<{ entryId: string; label: string; unit: WalletUnit; amount: number }[]> {
    return (await this.reads.orderUses(organizationId, orderId, em))
      .filter((u) => !u.returned)
      .map((u) => ({ entryId: u.id, label: u.label, unit: u.unit, amount: u.amount }));
  }

  /** The gift-card and store-credit money an order used (uses with its order_id), each with whether it was given back. */
  async orderMoneyUses(
    organizationId: string,
    orderId: string,
    em?: EntityManager,
  ): Promise<{ entry_id: string; holding_id: string; student_id: string; cents: number; returned: boolean }[]> {
    return (await this.reads.orderUses(organizationId, orderId, em))
      .filter((u) => u.unit === 'cents')
      .map((u) => ({ entry_id: u.id, holding_id: u.holding_id, student_id: u.student_id, cents: u.amount, returned: u.returned }));
  }

  /** The use (membership booking or pack credit) that covered a booking, or null; `returned` once given back. */
  useOfBooking(
    organizationId: string,
    booking: { enrollmentId?: string | null; appointmentId?: string | null },
    em?: EntityManager,
  ): Promise<(BookingUseRow & { entry_id: string; expired: boolean }) | null> {
    return this.reads.useOfBooking(organizationId, booking, em);
  }

  /** A holding's balance now (for display; a change reads it again under the lock). */
  balance(organizationId: string, holdingId: string): Promise<number> {
    return this.reads.balance(organizationId, holdingId);
  }

  private run<T>(em: EntityManager | undefined, fn: (tx: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.em, em, fn);
  }
}
