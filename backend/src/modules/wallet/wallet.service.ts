import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  hasControlCharacters,
  INPUT_MESSAGES,
  MAX_WALLET_AMOUNT,
  MAX_WALLET_LABEL_LENGTH,
  MAX_WALLET_NOTE_LENGTH,
  WALLET_ENTRIES_SHOWN,
  WALLET_KIND_UNIT,
  WALLET_MESSAGES,
  STORE_CREDIT_HOLDING_LABEL,
  type BookingUseRow,
  type CoveringHolding,
  type Wallet,
  type WalletEntry,
  type WalletHoldingStatus,
  type WalletKind,
  type WalletReason,
  type WalletUnit,
  UNLIMITED_BOOKINGS,
} from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { actorName, ActorNameColumns, actorNameSql } from '../identity/actor-name';
import { Clock } from '../../common/clock';

/** A grant: a new holding, or a top-up of `holdingId` (same student, same kind, not expired). */
export interface WalletGrant {
  organizationId: string;
  studentId: string;
  kind: WalletKind;
  /** What the admin and the student read: "10-class pack", "Gift card from Ana". */
  label: string;
  /** Credits, bookings or cents (the kind's unit), above 0. */
  amount: number;
  holdingId?: string;
  productId?: string;
  orderId?: string;
  expiresAt?: Date;
  /** A gift card's code, hashed by the caller (the code itself is never stored). */
  codeHash?: string;
  /** An unlimited membership (its grants are UNLIMITED_BOOKINGS a period; read "Unlimited"). */
  unlimited?: boolean;
  /** The courses (activity ids) or categories a membership or pack covers; none or empty: all. */
  coversActivityIds?: string[] | null;
  coversCategoryIds?: number[] | null;
  /** The subscription a membership follows (one holding per subscription). */
  subscriptionId?: string;
  /** Makes a retried grant happen once (e.g. `order:<id>:line:<n>`, `refund:<id>`): a repeat answers the first. */
  key?: string;
  actorUserId?: string;
  note?: string;
}

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

/** What a ledger change answers: the row (new, or the first one when the change was a repeat). */
export interface WalletChange {
  holdingId: string;
  entryId: string;
  balanceAfter: number;
  /** False when the key had been used: nothing was written. */
  created: boolean;
}

type HoldingRow = {
  id: string;
  student_id: string;
  kind: WalletKind;
  unit: WalletUnit;
  status: WalletHoldingStatus;
  expires_at: Date | null;
};

type CoverageColumns = { unlimited: boolean; covers_activity_ids: string[] | null; covers_category_ids: number[] | null };

type EntryRow = {
  id: string;
  holding_id: string;
  amount: number;
  balance_after: number;
  reason: WalletReason;
  note: string | null;
  order_id: string | null;
  enrollment_id: string | null;
  appointment_id: string | null;
  created_at: Date;
} & ActorNameColumns;

const conflict = (message: string) => new ApiError(HttpStatus.CONFLICT, message);
const badRequest = (message: string, field: string) => new ApiError(HttpStatus.BAD_REQUEST, message, { [field]: message });

/**
 * What a student holds (memberships, class packs, gift cards, store credit) as one ledger per
 * student (issue 24). Every change runs in one transaction under the student's lock
 * (pg_advisory_xact_lock), reads the holding's balance inside it and appends a row with the balance
 * after it, so a balance is always the sum of its rows and never below zero (a check says so too).
 * A change another module makes inside its own transaction (a store checkout) passes its `em`;
 * otherwise the change runs in a transaction of its own. Refused changes write nothing.
 */
@Injectable()
export class WalletService {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
  ) {}

  /** Creates a holding with its first grant, or tops one up. Once per `key`. */
  async grant(g: WalletGrant, em?: EntityManager): Promise<WalletChange> {
    if (!Number.isInteger(g.amount) || g.amount <= 0 || g.amount > MAX_WALLET_AMOUNT)
      throw badRequest(WALLET_MESSAGES.grantAmountInvalid, 'amount');
    const label = g.label.trim();
    if (!label || label.length > MAX_WALLET_LABEL_LENGTH) throw badRequest(WALLET_MESSAGES.labelInvalid, 'label');
    if (hasControlCharacters(label) || (g.note !== undefined && hasControlCharacters(g.note, { multiline: true })))
      throw badRequest(INPUT_MESSAGES.controlCharacters, 'label');
    return this.run(em, async (tx) => {
      await this.lockStudent(tx, g.studentId);
      const repeat = await this.byKey(tx, g.organizationId, g.key);
      if (repeat) return repeat;
      let holdingId = g.holdingId;
      let balance = 0;
      if (holdingId) {
        const holding = await this.holdingOfStudent(tx, g.organizationId, g.studentId, holdingId);
        if (holding.kind !== g.kind) throw conflict(WALLET_MESSAGES.kindMismatch);
        if (isExpired(holding, this.clock.now())) throw conflict(WALLET_MESSAGES.expired);
        balance = await this.balanceOf(tx, holdingId);
      } else {
        holdingId = randomUUID();
        await tx.execute(
          `insert into wallet_holding (id, organization_id, student_id, kind, label, unit, product_id, order_id, expires_at, code_hash,
                                       unlimited, covers_activity_ids, covers_category_ids, subscription_id, created_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::uuid[], ?::integer[], ?, clock_timestamp())`,
          [
            holdingId,
            g.organizationId,
            g.studentId,
            g.kind,
            label,
            WALLET_KIND_UNIT[g.kind],
            g.productId ?? null,
            g.orderId ?? null,
            g.expiresAt ?? null,
            g.codeHash ?? null,
            g.unlimited ?? false,
            g.coversActivityIds?.length ? `{${g.coversActivityIds.join(',')}}` : null,
            g.coversCategoryIds?.length ? `{${g.coversCategoryIds.join(',')}}` : null,
            g.subscriptionId ?? null,
          ],
        );
      }
      return this.append(tx, {
        organizationId: g.organizationId,
        studentId: g.studentId,
        holdingId,
        amount: g.amount,
        balanceAfter: balance + g.amount,
        reason: 'grant',
        orderId: g.orderId,
        actorUserId: g.actorUserId,
        note: g.note,
        key: g.key,
      });
    });
  }

  /**
   * Uses a holding: refused (409 with the message) when it is another student's, has expired or
   * holds too little. A booking uses once (the same enrollment or appointment again answers its
   * first use); an order uses each holding once.
   */
  async use(u: WalletUse, em?: EntityManager): Promise<WalletChange> {
    const amount = u.amount ?? 1;
    if (!Number.isInteger(amount) || amount <= 0 || amount > MAX_WALLET_AMOUNT)
      throw badRequest(WALLET_MESSAGES.amountInvalid, 'amount');
    const key = u.enrollmentId
      ? `use:enrollment:${u.enrollmentId}`
      : u.appointmentId
        ? `use:appointment:${u.appointmentId}`
        : u.orderId
          ? `use:order:${u.orderId}:${u.holdingId}`
          : null;
    if (!key) throw new Error('A use names its booking (enrollment or appointment) or its order');
    return this.run(em, async (tx) => {
      await this.lockStudent(tx, u.studentId);
      const repeat = await this.byKey(tx, u.organizationId, key);
      if (repeat) return repeat;
      const holding = await this.holding(tx, u.organizationId, u.holdingId);
      if (holding.student_id !== u.studentId) throw conflict(WALLET_MESSAGES.notStudents);
      if (isExpired(holding, u.at ?? this.clock.now())) throw conflict(WALLET_MESSAGES.expired);
      const balance = await this.balanceOf(tx, holding.id);
      if (balance < amount) throw conflict(WALLET_MESSAGES.notEnough[holding.unit]);
      return this.append(tx, {
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
    const [use] = await this.read(em)<
      { id: string; student_id: string; holding_id: string; amount: number; order_id: string | null; enrollment_id: string | null; appointment_id: string | null }[]
    >(
      `select id, student_id, holding_id, amount, order_id, enrollment_id, appointment_id
         from wallet_entry where organization_id = ? and id = ? and reason = 'use'`,
      [r.organizationId, r.useEntryId],
    );
    if (!use) throw notFound(WALLET_MESSAGES.useNotFound);
    return this.run(em, async (tx) => {
      await this.lockStudent(tx, use.student_id);
      const key = `return:${use.id}`;
      const repeat = await this.byKey(tx, r.organizationId, key);
      if (repeat) return repeat;
      const holding = await this.holding(tx, r.organizationId, use.holding_id);
      if (isExpired(holding, this.clock.now())) throw conflict(WALLET_MESSAGES.expired);
      const balance = await this.balanceOf(tx, holding.id);
      const amount = -Number(use.amount);
      return this.append(tx, {
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
    const [found] = await this.read(em)<{ student_id: string }[]>(
      `select student_id from wallet_holding where organization_id = ? and id = ?`,
      [r.organizationId, r.holdingId],
    );
    if (!found) throw notFound(WALLET_MESSAGES.holdingNotFound);
    return this.run(em, async (tx) => {
      await this.lockStudent(tx, found.student_id);
      const holding = await this.holding(tx, r.organizationId, r.holdingId);
      if (holding.status === 'expired' || !holding.expires_at || now < new Date(holding.expires_at)) return false;
      const balance = await this.balanceOf(tx, holding.id);
      if (balance > 0)
        await this.append(tx, {
          organizationId: r.organizationId,
          studentId: holding.student_id,
          holdingId: holding.id,
          amount: -balance,
          balanceAfter: 0,
          reason: 'expire',
          // Per expiry instant: a membership's holding expires at a period's end and may be renewed after it.
          key: `expire:${holding.id}:${new Date(holding.expires_at).toISOString()}`,
        });
      await tx.execute(`update wallet_holding set status = 'expired' where id = ?`, [holding.id]);
      return true;
    });
  }

  /**
   * A membership's billing period (issue 24): the first one creates the subscription's holding (one
   * per subscription) with the period's bookings (UNLIMITED_BOOKINGS when unlimited) until its end;
   * a later one (a renewal) ends what was left of the last period (an `expire` row, "The period
   * ended"), grants the period's bookings again and moves expires_at to the new end, active again
   * (the sweep may have expired it at the old end before the renewal came). Once per period end (its
   * key); a period that does not end later than the holding's changes nothing (an event out of
   * order). Answers the grant, or null when nothing was written.
   */
  async membershipPeriod(m: MembershipPeriod, em?: EntityManager): Promise<WalletChange | null> {
    const amount = m.unlimited ? UNLIMITED_BOOKINGS : m.bookings;
    if (!Number.isInteger(amount) || amount <= 0) throw badRequest(WALLET_MESSAGES.grantAmountInvalid, 'amount');
    const key = `membership:${m.subscriptionId}:period:${m.periodEnd.toISOString()}`;
    return this.run(em, async (tx) => {
      await this.lockStudent(tx, m.studentId);
      const repeat = await this.byKey(tx, m.organizationId, key);
      if (repeat) return repeat;
      const holding = await this.membershipHolding(tx, m.organizationId, m.subscriptionId);
      if (!holding)
        return this.grant(
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
          tx,
        );
      if (holding.expires_at && m.periodEnd <= new Date(holding.expires_at)) return null;
      let balance = await this.balanceOf(tx, holding.id);
      if (balance > 0) {
        await this.append(tx, {
          organizationId: m.organizationId,
          studentId: holding.student_id,
          holdingId: holding.id,
          amount: -balance,
          balanceAfter: 0,
          reason: 'expire',
          note: 'The period ended',
          key: `membership:${m.subscriptionId}:ended:${holding.expires_at ? new Date(holding.expires_at).toISOString() : 'start'}`,
        });
        balance = 0;
      }
      await tx.execute(`update wallet_holding set expires_at = ?, status = 'active' where id = ?`, [m.periodEnd, holding.id]);
      return this.append(tx, {
        organizationId: m.organizationId,
        studentId: holding.student_id,
        holdingId: holding.id,
        amount,
        balanceAfter: balance + amount,
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
  async endMembership(r: { organizationId: string; subscriptionId: string; now?: Date }, em?: EntityManager): Promise<boolean> {
    const now = r.now ?? this.clock.now();
    const [found] = await this.read(em)<{ student_id: string }[]>(
      `select student_id from wallet_holding where organization_id = ? and subscription_id = ?`,
      [r.organizationId, r.subscriptionId],
    );
    if (!found) return false;
    return this.run(em, async (tx) => {
      await this.lockStudent(tx, found.student_id);
      const holding = await this.membershipHolding(tx, r.organizationId, r.subscriptionId);
      if (!holding || holding.status === 'expired') return false;
      const balance = await this.balanceOf(tx, holding.id);
      if (balance > 0)
        await this.append(tx, {
          organizationId: r.organizationId,
          studentId: holding.student_id,
          holdingId: holding.id,
          amount: -balance,
          balanceAfter: 0,
          reason: 'expire',
          note: 'The membership ended',
          key: `membership:${r.subscriptionId}:lapsed`,
        });
      await tx.execute(
        `update wallet_holding set status = 'expired', expires_at = least(coalesce(expires_at, ?), ?) where id = ?`,
        [now, now, holding.id],
      );
      return true;
    });
  }

  /** The holding a gift card's code names (by the code's hash), with its organization's balance; null when none. */
  async giftCardByCodeHash(organizationId: string, codeHash: string, em?: EntityManager): Promise<{ holdingId: string; studentId: string; balance: number; status: WalletHoldingStatus; expiresAt: Date | null } | null> {
    const [row] = await this.read(em)<{ id: string; student_id: string; status: WalletHoldingStatus; expires_at: Date | null; balance: number | null }[]>(
      `select h.id, h.student_id, h.status, h.expires_at,
              (select e.balance_after from wallet_entry e where e.holding_id = h.id order by e.seq desc limit 1) as balance
         from wallet_holding h
        where h.organization_id = ? and h.code_hash = ? and h.kind = 'gift_card'`,
      [organizationId, codeHash],
    );
    return row
      ? { holdingId: row.id, studentId: row.student_id, balance: Number(row.balance ?? 0), status: row.status, expiresAt: row.expires_at ? new Date(row.expires_at) : null }
      : null;
  }

  /** Expires every holding due at `now` (for a periodic sweep); answers how many it expired. */
  async expireDue(now = this.clock.now()): Promise<number> {
    const due = await this.em.getConnection().execute<{ id: string; organization_id: string }[]>(
      `select id, organization_id from wallet_holding where status = 'active' and expires_at <= ? order by expires_at limit 1000`,
      [now],
    );
    let expired = 0;
    for (const h of due) if (await this.expire({ organizationId: h.organization_id, holdingId: h.id, now })) expired++;
    return expired;
  }

  /**
   * An owner's (or super admin's) signed change with its reason. 404 unless the holding is the
   * student's in the caller's organization; 409 when it has expired or would go below zero.
   */
  async adjust(ctx: RequestContext, studentId: string, holdingId: string, input: { amount: number; reason: string }): Promise<WalletChange> {
    const note = typeof input.reason === 'string' ? input.reason.trim() : '';
    if (!note) throw badRequest(WALLET_MESSAGES.reasonRequired, 'reason');
    if (note.length > MAX_WALLET_NOTE_LENGTH) throw badRequest(WALLET_MESSAGES.reasonTooLong, 'reason');
    if (hasControlCharacters(note)) throw badRequest(INPUT_MESSAGES.controlCharacters, 'reason');
    if (!Number.isInteger(input.amount) || input.amount === 0) throw badRequest(WALLET_MESSAGES.amountInvalid, 'amount');
    if (Math.abs(input.amount) > MAX_WALLET_AMOUNT) throw badRequest(WALLET_MESSAGES.amountTooLarge, 'amount');
    return this.run(undefined, async (tx) => {
      await this.lockStudent(tx, studentId);
      const holding = await this.holdingOfStudent(tx, ctx.organizationId, studentId, holdingId);
      if (isExpired(holding, this.clock.now())) throw conflict(WALLET_MESSAGES.expired);
      const balance = await this.balanceOf(tx, holding.id);
      if (balance + input.amount < 0) throw conflict(WALLET_MESSAGES.belowZero);
      return this.append(tx, {
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

  /** A student's holdings (newest first) with their balances, and the newest ledger rows. The caller checked the student. */
  async wallet(organizationId: string, studentId: string, limit = WALLET_ENTRIES_SHOWN): Promise<Wallet> {
    const connection = this.em.getConnection();
    const holdings = await this.holdings(organizationId, studentId, { activeOnly: false });
    const actor = actorNameSql('e.actor_user_id');
    const entries = await connection.execute<EntryRow[]>(
      `select e.id, e.holding_id, e.amount, e.balance_after, e.reason, e.note, e.order_id, e.enrollment_id, e.appointment_id,
              ${actor.columns}, e.created_at
         from wallet_entry e ${actor.join}
        where e.organization_id = ? and e.student_id = ?
        order by e.seq desc limit ?`,
      [organizationId, studentId, limit],
    );
    return {
      // Newest first, as the student drawer lists them.
      holdings: holdings.reverse(),
      entries: entries.map(mapEntry),
    };
  }

  /**
   * The student's usable holdings as planWalletPayment reads them. Inside a change (`em` given) call
   * `lockStudent` first so the balances cannot move before the uses are written.
   */
  async covering(organizationId: string, studentId: string, em?: EntityManager): Promise<(CoveringHolding & { label: string; unlimited: boolean; unit: WalletUnit })[]> {
    return this.holdings(organizationId, studentId, { activeOnly: true }, em);
  }

  /**
   * The student's holdings with their balances (the last ledger row's), oldest first: every one for
   * the student drawer (wallet), the active ones for what may pay (covering). One query for both.
   */
  private async holdings(organizationId: string, studentId: string, { activeOnly }: { activeOnly: boolean }, em?: EntityManager) {
    const rows = await this.read(em)<
      (HoldingRow & CoverageColumns & { label: string; product_id: string | null; order_id: string | null; created_at: Date; balance: number | null })[]
    >(
      `select h.id, h.student_id, h.kind, h.label, h.unit, h.status, h.expires_at, h.product_id, h.order_id, h.created_at,
              h.unlimited, h.covers_activity_ids, h.covers_category_ids,
              (select e.balance_after from wallet_entry e where e.holding_id = h.id order by e.seq desc limit 1) as balance
         from wallet_holding h
        where h.organization_id = ? and h.student_id = ?${activeOnly ? " and h.status = 'active'" : ''}
        order by h.created_at, h.id`,
      [organizationId, studentId],
    );
    return rows.map((h) => ({
      holding_id: h.id,
      kind: h.kind,
      label: h.label,
      unit: h.unit,
      balance: Number(h.balance ?? 0),
      status: h.status,
      expires_at: h.expires_at ? new Date(h.expires_at).toISOString() : null,
      product_id: h.product_id,
      order_id: h.order_id,
      created_at: new Date(h.created_at).toISOString(),
      unlimited: h.unlimited,
      covers_activity_ids: h.covers_activity_ids,
      covers_category_ids: h.covers_category_ids?.map(Number) ?? null,
    }));
  }

  /** An order's uses not given back (what paid it from holdings), oldest first, with the holding's label and unit. */
  async usesOfOrder(organizationId: string, orderId: string, em?: EntityManager): Promise<{ entryId: string; label: string; unit: WalletUnit; amount: number }[]> {
    return (await this.orderUses(organizationId, orderId, em))
      .filter((u) => !u.returned)
      .map((u) => ({ entryId: u.id, label: u.label, unit: u.unit, amount: u.amount }));
  }

  /** Every use an order made (oldest first): its holding, the holding's label and unit, the amount used and whether it was given back. One query for usesOfOrder and orderMoneyUses. */
  private async orderUses(organizationId: string, orderId: string, em?: EntityManager) {
    const rows = await this.read(em)<
      { id: string; holding_id: string; student_id: string; label: string; unit: WalletUnit; amount: number; returned: boolean }[]
    >(
      `select e.id, e.holding_id, e.student_id, h.label, h.unit, -e.amount as amount,
              exists (select 1 from wallet_entry r where r.returns_entry_id = e.id) as returned
         from wallet_entry e join wallet_holding h on h.id = e.holding_id
        where e.organization_id = ? and e.order_id = ? and e.reason = 'use'
        order by e.seq`,
      [organizationId, orderId],
    );
    return rows.map((r) => ({ ...r, amount: Number(r.amount), returned: Boolean(r.returned) }));
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
        if (!(error instanceof ApiError) || error.getStatus() !== HttpStatus.CONFLICT) throw error;
      }
    }
    return returned;
  }

  /** Takes the student's wallet lock in the caller's transaction (before reading `covering` to plan uses). */
  async lock(em: EntityManager, studentId: string): Promise<void> {
    await this.lockStudent(em, studentId);
  }

  /** A holding's balance now (for display; a change reads it again under the lock). */
  async balance(organizationId: string, holdingId: string): Promise<number> {
    const [row] = await this.em.getConnection().execute<{ balance_after: number }[]>(
      `select balance_after from wallet_entry where organization_id = ? and holding_id = ? order by seq desc limit 1`,
      [organizationId, holdingId],
    );
    return row ? Number(row.balance_after) : 0;
  }

  // Refunds to store credit and cancellations that give a use back (brief R): additive helpers.

  /**
   * Adds `amount` cents to the student's one active store-credit holding (created the first time,
   * labelled "Store credit"), once per `key` (`refund:<refundId>`), under the student's lock.
   */
  async grantStoreCredit(
    g: { organizationId: string; studentId: string; amount: number; key: string; orderId?: string; actorUserId?: string; note?: string },
    em?: EntityManager,
  ): Promise<WalletChange> {
    return this.run(em, async (tx) => {
      await this.lockStudent(tx, g.studentId);
      const repeat = await this.byKey(tx, g.organizationId, g.key);
      if (repeat) return repeat;
      const [holding] = await tx.execute<{ id: string }[]>(
        `select id from wallet_holding
          where organization_id = ? and student_id = ? and kind = 'store_credit' and status = 'active'
            and (expires_at is null or expires_at > ?)
          order by created_at, id limit 1`,
        [g.organizationId, g.studentId, this.clock.now()],
      );
      return this.grant(
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
        tx,
      );
    });
  }

  /** The use (membership booking or pack credit) that covered a booking, or null; `returned` once given back. */
  async useOfBooking(
    organizationId: string,
    booking: { enrollmentId?: string | null; appointmentId?: string | null },
    em?: EntityManager,
  ): Promise<(BookingUseRow & { entry_id: string; expired: boolean }) | null> {
    const column = booking.enrollmentId ? 'enrollment_id' : booking.appointmentId ? 'appointment_id' : null;
    if (!column) return null;
    const [row] = await this.read(em)<
      { id: string; holding_id: string; kind: WalletKind; label: string; unit: WalletUnit; amount: number; status: WalletHoldingStatus; expires_at: Date | null; returned: boolean }[]
    >(
      `select e.id, e.holding_id, h.kind, h.label, h.unit, e.amount, h.status, h.expires_at,
              exists (select 1 from wallet_entry r where r.returns_entry_id = e.id) as returned
         from wallet_entry e join wallet_holding h on h.id = e.holding_id
        where e.organization_id = ? and e.${column} = ? and e.reason = 'use' and h.unit <> 'cents'
        order by e.seq limit 1`,
      [organizationId, booking.enrollmentId ?? booking.appointmentId],
    );
    if (!row) return null;
    return {
      entry_id: row.id,
      holding_id: row.holding_id,
      kind: row.kind,
      label: row.label,
      unit: row.unit,
      amount: -Number(row.amount),
      returned: Boolean(row.returned),
      expired: isExpired(row, this.clock.now()),
    };
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
    const use = await this.useOfBooking(organizationId, booking, em);
    if (!use) return 'none';
    if (use.returned) return 'returned';
    if (use.expired) return 'expired';
    await this.returnUse({ organizationId, useEntryId: use.entry_id, actorUserId: by.actorUserId, note: by.note }, em);
    return 'returned';
  }

  /** The gift-card and store-credit money an order used (uses with its order_id), each with whether it was given back. */
  async orderMoneyUses(
    organizationId: string,
    orderId: string,
    em?: EntityManager,
  ): Promise<{ entry_id: string; holding_id: string; student_id: string; cents: number; returned: boolean }[]> {
    return (await this.orderUses(organizationId, orderId, em))
      .filter((u) => u.unit === 'cents')
      .map((u) => ({ entry_id: u.id, holding_id: u.holding_id, student_id: u.student_id, cents: u.amount, returned: u.returned }));
  }

  /** A read in the caller's transaction when there is one (it may hold rows not committed yet). */
  private read(em: EntityManager | undefined) {
    return <T extends object[]>(sql: string, params: unknown[]) => (em ? em.execute<T>(sql, params) : this.em.getConnection().execute<T>(sql, params));
  }

  private run<T>(em: EntityManager | undefined, fn: (tx: EntityManager) => Promise<T>): Promise<T> {
    return em ? fn(em) : this.em.fork().transactional(fn);
  }

  /** The student's wallet lock for this transaction: every change of one student's holdings waits its turn. */
  private async lockStudent(tx: EntityManager, studentId: string): Promise<void> {
    await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 7))`, [`wallet:${studentId}`]);
  }

  private async balanceOf(tx: EntityManager, holdingId: string): Promise<number> {
    const [row] = await tx.execute<{ balance_after: number }[]>(
      `select balance_after from wallet_entry where holding_id = ? order by seq desc limit 1`,
      [holdingId],
    );
    return row ? Number(row.balance_after) : 0;
  }

  private async holding(tx: EntityManager, organizationId: string, holdingId: string): Promise<HoldingRow> {
    const [row] = await tx.execute<HoldingRow[]>(
      `select id, student_id, kind, unit, status, expires_at from wallet_holding where organization_id = ? and id = ?`,
      [organizationId, holdingId],
    );
    if (!row) throw notFound(WALLET_MESSAGES.holdingNotFound);
    return row;
  }

  /** A subscription's membership holding (one per subscription), or null. */
  private async membershipHolding(tx: EntityManager, organizationId: string, subscriptionId: string): Promise<HoldingRow | null> {
    const [row] = await tx.execute<HoldingRow[]>(
      `select id, student_id, kind, unit, status, expires_at from wallet_holding where organization_id = ? and subscription_id = ?`,
      [organizationId, subscriptionId],
    );
    return row ?? null;
  }

  /** The holding, 404 unless it is this student's in this organization. */
  private async holdingOfStudent(tx: EntityManager, organizationId: string, studentId: string, holdingId: string): Promise<HoldingRow> {
    const row = await this.holding(tx, organizationId, holdingId);
    if (row.student_id !== studentId) throw notFound(WALLET_MESSAGES.holdingNotFound);
    return row;
  }

  /** The change a key made already, or null. */
  private async byKey(tx: EntityManager, organizationId: string, key: string | undefined): Promise<WalletChange | null> {
    if (!key) return null;
    const [row] = await tx.execute<{ id: string; holding_id: string; balance_after: number }[]>(
      `select id, holding_id, balance_after from wallet_entry where organization_id = ? and key = ?`,
      [organizationId, key],
    );
    return row ? { holdingId: row.holding_id, entryId: row.id, balanceAfter: Number(row.balance_after), created: false } : null;
  }

  private async append(
    tx: EntityManager,
    e: {
      organizationId: string;
      studentId: string;
      holdingId: string;
      amount: number;
      balanceAfter: number;
      reason: WalletReason;
      orderId?: string;
      enrollmentId?: string;
      appointmentId?: string;
      returnsEntryId?: string;
      actorUserId?: string;
      note?: string;
      key?: string;
    },
  ): Promise<WalletChange> {
    const id = randomUUID();
    await tx.execute(
      `insert into wallet_entry (id, organization_id, student_id, holding_id, amount, balance_after, reason, order_id,
                                 enrollment_id, appointment_id, returns_entry_id, actor_user_id, note, key, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, clock_timestamp())`,
      [
        id,
        e.organizationId,
        e.studentId,
        e.holdingId,
        e.amount,
        e.balanceAfter,
        e.reason,
        e.orderId ?? null,
        e.enrollmentId ?? null,
        e.appointmentId ?? null,
        e.returnsEntryId ?? null,
        e.actorUserId ?? null,
        e.note ?? null,
        e.key ?? null,
      ],
    );
    return { holdingId: e.holdingId, entryId: id, balanceAfter: e.balanceAfter, created: true };
  }
}

/** Expired: marked so, or its expiry has come (a use at that instant is refused). */
function isExpired(h: Pick<HoldingRow, 'status' | 'expires_at'>, now: Date): boolean {
  return h.status === 'expired' || (h.expires_at !== null && now >= new Date(h.expires_at));
}

function mapEntry(r: EntryRow): WalletEntry {
  return {
    entry_id: r.id,
    holding_id: r.holding_id,
    amount: Number(r.amount),
    balance_after: Number(r.balance_after),
    reason: r.reason,
    note: r.note,
    order_id: r.order_id,
    enrollment_id: r.enrollment_id,
    appointment_id: r.appointment_id,
    actor: actorName(r),
    created_at: new Date(r.created_at).toISOString(),
  };
}
