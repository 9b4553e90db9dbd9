import { EntityManager } from '@mikro-orm/postgresql';
import {
  hasControlCharacters,
  INPUT_MESSAGES,
  MAX_WALLET_AMOUNT,
  MAX_WALLET_LABEL_LENGTH,
  WALLET_KIND_UNIT,
  WALLET_MESSAGES,
  type WalletHoldingStatus,
  type WalletKind,
  type WalletReason,
  type WalletUnit,
} from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../common/domain-error';

/*
 * The wallet ledger's writes inside a caller's transaction (issue 24; split out of WalletService in
 * issue 33): the student's lock, the holding and balance reads under it, the once-per-key check, the
 * holding insert and the one appended row with its balance after. Every change of WalletService and
 * WalletMemberships is composed of these, so the ledger's invariants (a balance is the sum of its
 * rows and never below zero, a key writes once) live here only. Refusals are DomainErrors.
 */

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

/** What a ledger change answers: the row (new, or the first one when the change was a repeat). */
export interface WalletChange {
  holdingId: string;
  entryId: string;
  balanceAfter: number;
  /** False when the key had been used: nothing was written. */
  created: boolean;
}

export type HoldingRow = {
  id: string;
  student_id: string;
  kind: WalletKind;
  unit: WalletUnit;
  status: WalletHoldingStatus;
  expires_at: Date | null;
};

/** One row to append: the change and the balance it leaves. */
export interface LedgerRow {
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
}

type WalletMessageCode = Exclude<keyof typeof WALLET_MESSAGES, 'notEnough'>;

/** A 409 with the wallet's message (expired, not enough, another student's). */
export const walletConflict = (code: WalletMessageCode | 'notEnough', message: string = WALLET_MESSAGES[code as WalletMessageCode]) =>
  new DomainError('conflict', { code, message });
/** A 400 on the field it names. */
export const walletInvalid = (code: WalletMessageCode | 'controlCharacters', field: string) =>
  new DomainError('invalid', {
    code,
    message: code === 'controlCharacters' ? INPUT_MESSAGES.controlCharacters : WALLET_MESSAGES[code],
    field,
  });
/** A 404: the holding or the use is not in the caller's organization (or not the student's). */
export const walletNotFound = (code: 'holdingNotFound' | 'useNotFound') => new DomainError('not_found', { code, message: WALLET_MESSAGES[code] });

/** Expired: marked so, or its expiry has come (a use at that instant is refused). */
export function isExpired(h: Pick<HoldingRow, 'status' | 'expires_at'>, now: Date): boolean {
  return h.status === 'expired' || (h.expires_at !== null && now >= new Date(h.expires_at));
}

/** A grant's amount and label, checked before anything is written. */
export function checkGrant(g: Pick<WalletGrant, 'amount' | 'label' | 'note'>): string {
  if (!Number.isInteger(g.amount) || g.amount <= 0 || g.amount > MAX_WALLET_AMOUNT) throw walletInvalid('grantAmountInvalid', 'amount');
  const label = g.label.trim();
  if (!label || label.length > MAX_WALLET_LABEL_LENGTH) throw walletInvalid('labelInvalid', 'label');
  if (hasControlCharacters(label) || (g.note !== undefined && hasControlCharacters(g.note, { multiline: true })))
    throw walletInvalid('controlCharacters', 'label');
  return label;
}

/** Runs `fn` in the caller's transaction when `em` is given, else in a transaction of its own (a fork of `root`). */
export function inTransaction<T>(root: EntityManager, em: EntityManager | undefined, fn: (tx: EntityManager) => Promise<T>): Promise<T> {
  return em ? fn(em) : root.fork().transactional(fn);
}

/** The student's wallet lock for this transaction: every change of one student's holdings waits its turn. */
export async function lockStudent(tx: EntityManager, studentId: string): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 7))`, [`wallet:${studentId}`]);
}

/** A holding's balance: its last row's balance after (0 with none). */
export async function balanceOf(tx: EntityManager, holdingId: string): Promise<number> {
  const [row] = await tx.execute<{ balance_after: number }[]>(
    `select balance_after from wallet_entry where holding_id = ? order by seq desc limit 1`,
    [holdingId],
  );
  return row ? Number(row.balance_after) : 0;
}

/** The holding, 404 unless it is in this organization. */
export async function holdingIn(tx: EntityManager, organizationId: string, holdingId: string): Promise<HoldingRow> {
  const [row] = await tx.execute<HoldingRow[]>(
    `select id, student_id, kind, unit, status, expires_at from wallet_holding where organization_id = ? and id = ?`,
    [organizationId, holdingId],
  );
  if (!row) throw walletNotFound('holdingNotFound');
  return row;
}

/** The holding, 404 unless it is this student's in this organization. */
export async function holdingOfStudent(tx: EntityManager, organizationId: string, studentId: string, holdingId: string): Promise<HoldingRow> {
  const row = await holdingIn(tx, organizationId, holdingId);
  if (row.student_id !== studentId) throw walletNotFound('holdingNotFound');
  return row;
}

/** A subscription's membership holding (one per subscription), or null. */
export async function membershipHolding(tx: EntityManager, organizationId: string, subscriptionId: string): Promise<HoldingRow | null> {
  const [row] = await tx.execute<HoldingRow[]>(
    `select id, student_id, kind, unit, status, expires_at from wallet_holding where organization_id = ? and subscription_id = ?`,
    [organizationId, subscriptionId],
  );
  return row ?? null;
}

/** The change a key made already, or null. */
export async function changeByKey(tx: EntityManager, organizationId: string, key: string | undefined): Promise<WalletChange | null> {
  if (!key) return null;
  const [row] = await tx.execute<{ id: string; holding_id: string; balance_after: number }[]>(
    `select id, holding_id, balance_after from wallet_entry where organization_id = ? and key = ?`,
    [organizationId, key],
  );
  return row ? { holdingId: row.holding_id, entryId: row.id, balanceAfter: Number(row.balance_after), created: false } : null;
}

/** Appends one ledger row (the caller read the balance under the student's lock). */
export async function appendEntry(tx: EntityManager, e: LedgerRow): Promise<WalletChange> {
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

/** Zeroes what is left on a holding with one `expire` row (none when nothing is left). */
export async function zeroOut(
  tx: EntityManager,
  holding: Pick<HoldingRow, 'id' | 'student_id'>,
  r: { organizationId: string; key: string; note?: string },
): Promise<void> {
  const balance = await balanceOf(tx, holding.id);
  if (balance <= 0) return;
  await appendEntry(tx, {
    organizationId: r.organizationId,
    studentId: holding.student_id,
    holdingId: holding.id,
    amount: -balance,
    balanceAfter: 0,
    reason: 'expire',
    note: r.note,
    key: r.key,
  });
}

/**
 * A grant in the caller's transaction, under the student's lock (taken here): once per key; a
 * top-up of a holding of the same kind that has not expired at `now`, or a new holding.
 */
export async function grantIn(tx: EntityManager, g: WalletGrant, now: Date): Promise<WalletChange> {
  const label = checkGrant(g);
  await lockStudent(tx, g.studentId);
  const repeat = await changeByKey(tx, g.organizationId, g.key);
  if (repeat) return repeat;
  let holdingId = g.holdingId;
  let balance = 0;
  if (holdingId) {
    const holding = await holdingOfStudent(tx, g.organizationId, g.studentId, holdingId);
    if (holding.kind !== g.kind) throw walletConflict('kindMismatch');
    if (isExpired(holding, now)) throw walletConflict('expired');
    balance = await balanceOf(tx, holdingId);
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
  return appendEntry(tx, {
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
}
