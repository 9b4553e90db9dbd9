import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  WALLET_ENTRIES_SHOWN,
  type BookingUseRow,
  type CoveringHolding,
  type Wallet,
  type WalletEntry,
  type WalletHoldingStatus,
  type WalletKind,
  type WalletReason,
  type WalletUnit,
} from '@studio/contracts';
import { Clock } from '../../common/clock';
import { actorName, ActorNameColumns, actorNameSql } from '../identity/actor-name';
import { HoldingRow, isExpired } from './wallet-ledger';

/*
 * What the wallet's tables say, read (issue 24; split out of WalletService in issue 33): a
 * student's holdings and newest rows (the drawer), what may pay (covering), an order's and a
 * booking's uses, a gift card by its code's hash, a balance. Reads only: inside a change, pass the
 * change's `em` (it may hold rows not committed yet) and take the student's lock first.
 */

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

/** One use of an order: its holding, the holding's label and unit, the amount used, whether it was given back. */
export interface OrderUse {
  id: string;
  holding_id: string;
  student_id: string;
  label: string;
  unit: WalletUnit;
  amount: number;
  returned: boolean;
}

@Injectable()
export class WalletReadModel {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
  ) {}

  /** A student's holdings (newest first) with their balances, and the newest ledger rows. The caller checked the student. */
  async wallet(organizationId: string, studentId: string, limit = WALLET_ENTRIES_SHOWN): Promise<Wallet> {
    const holdings = await this.holdings(organizationId, studentId, { activeOnly: false });
    const actor = actorNameSql('e.actor_user_id');
    const entries = await this.em.getConnection().execute<EntryRow[]>(
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
   * The student's holdings with their balances (the last ledger row's), oldest first: every one for
   * the student drawer (wallet), the active ones for what may pay (covering). One query for both.
   */
  async holdings(organizationId: string, studentId: string, { activeOnly }: { activeOnly: boolean }, em?: EntityManager) {
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
    })) satisfies (CoveringHolding & { label: string; unlimited: boolean; unit: WalletUnit })[];
  }

  /** Every use an order made (oldest first). One query for the order's uses not given back and its money uses. */
  async orderUses(organizationId: string, orderId: string, em?: EntityManager): Promise<OrderUse[]> {
    const rows = await this.read(em)<OrderUse[]>(
      `select e.id, e.holding_id, e.student_id, h.label, h.unit, -e.amount as amount,
              exists (select 1 from wallet_entry r where r.returns_entry_id = e.id) as returned
         from wallet_entry e join wallet_holding h on h.id = e.holding_id
        where e.organization_id = ? and e.order_id = ? and e.reason = 'use'
        order by e.seq`,
      [organizationId, orderId],
    );
    return rows.map((r) => ({ ...r, amount: Number(r.amount), returned: Boolean(r.returned) }));
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

  /** The holding a gift card's code names (by the code's hash), with its organization's balance; null when none. */
  async giftCardByCodeHash(
    organizationId: string,
    codeHash: string,
    em?: EntityManager,
  ): Promise<{ holdingId: string; studentId: string; balance: number; status: WalletHoldingStatus; expiresAt: Date | null } | null> {
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

  /** A holding's balance now (for display; a change reads it again under the lock). */
  async balance(organizationId: string, holdingId: string): Promise<number> {
    const [row] = await this.em.getConnection().execute<{ balance_after: number }[]>(
      `select balance_after from wallet_entry where organization_id = ? and holding_id = ? order by seq desc limit 1`,
      [organizationId, holdingId],
    );
    return row ? Number(row.balance_after) : 0;
  }

  /** A use by its id (reason 'use'), in the caller's organization, or null. */
  async useEntry(organizationId: string, useEntryId: string, em?: EntityManager) {
    const [use] = await this.read(em)<
      { id: string; student_id: string; holding_id: string; amount: number; order_id: string | null; enrollment_id: string | null; appointment_id: string | null }[]
    >(
      `select id, student_id, holding_id, amount, order_id, enrollment_id, appointment_id
         from wallet_entry where organization_id = ? and id = ? and reason = 'use'`,
      [organizationId, useEntryId],
    );
    return use ?? null;
  }

  /** The student a holding is of (found by id or by its subscription), or null. */
  async studentOfHolding(organizationId: string, by: { holdingId: string } | { subscriptionId: string }, em?: EntityManager): Promise<string | null> {
    const [found] = await this.read(em)<{ student_id: string }[]>(
      `select student_id from wallet_holding where organization_id = ? and ${'holdingId' in by ? 'id' : 'subscription_id'} = ?`,
      [organizationId, 'holdingId' in by ? by.holdingId : by.subscriptionId],
    );
    return found?.student_id ?? null;
  }

  /** Holdings whose expiry has come and that are still active (the sweep's work), oldest expiry first. */
  async dueToExpire(now: Date, limit = 1000): Promise<{ id: string; organization_id: string }[]> {
    return this.em.getConnection().execute<{ id: string; organization_id: string }[]>(
      `select id, organization_id from wallet_holding where status = 'active' and expires_at <= ? order by expires_at limit ?`,
      [now, limit],
    );
  }

  /** A read in the caller's transaction when there is one (it may hold rows not committed yet). */
  private read(em: EntityManager | undefined) {
    return <T extends object[]>(sql: string, params: unknown[]) => (em ? em.execute<T>(sql, params) : this.em.getConnection().execute<T>(sql, params));
  }
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
