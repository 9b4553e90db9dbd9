import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  formatHoldingBalance,
  formatWalletAmount,
  planWalletPayment,
  WALLET_MESSAGES,
  type CheckoutQuote,
  type CoveringHolding,
  type PointsBalance,
  type WalletPlan,
} from '@studio/contracts';
import { ApiError } from '../../common/api-error';
import { hashGiftCardCode } from '../wallet/gift-card-code';
import { WalletService } from '../wallet/wallet.service';
import { Clock } from '../../common/clock';

/** What the buyer asked the holdings to pay (issue 24): cover the booking, and/or let gift cards and credit pay. */
export interface WalletChoice {
  cover_booking?: boolean;
  use_wallet_money?: boolean;
  /** A gift card's code as mailed: the card pays what it can, whoever types it (a bearer code). */
  gift_card_code?: string;
}

/** The course a booking is for, as coverage reads it; null for a product. */
export type CoveredCourse = { activity_id: string; category_id: number | null } | null;

/** A plan with the labels the buyer reads. */
export interface ShownPlan {
  plan: WalletPlan;
  covered_by: CheckoutQuote['covered_by'];
  wallet_money: CheckoutQuote['wallet_money'];
  /** What the gift cards and credit pay. */
  walletCents: number;
  /** Each holding's student, when not the buyer's (a gift card paid by its code): its use is theirs. */
  owners: Record<string, string>;
}

const refusal = (status: HttpStatus, field: string, message: string) => new ApiError(status, message, { [field]: message });

/**
 * The store's side of the wallet (issue 24, "At the store"): what a proven student holds, the plan
 * of what pays a booking or an order in the written order (planWalletPayment, contracts), and the
 * ledger uses a checkout writes through WalletService, inside the checkout's transaction and under
 * the student's wallet lock (taken after the session's seat lock, as every booking path does).
 */
@Injectable()
export class StoreWalletPayment {
  constructor(
    private readonly wallet: WalletService,
    private readonly clock: Clock,
  ) {}

  /** Whether the buyer asked the holdings to pay anything. */
  asked(choice: WalletChoice): boolean {
    return Boolean(choice.cover_booking || choice.use_wallet_money);
  }

  /** 400 when holdings are asked to pay without the proof of the email (points/verify). */
  requireProof(choice: WalletChoice, proofStudentId: string | null): void {
    if (!this.asked(choice) || proofStudentId) return;
    throw refusal(HttpStatus.BAD_REQUEST, choice.cover_booking ? 'cover_booking' : 'use_wallet_money', WALLET_MESSAGES.needsProof);
  }

  /** What the proven student holds that can pay here now (their own only): the verify answer's list. */
  async holdingsShown(organizationId: string, studentId: string): Promise<PointsBalance['holdings']> {
    const now = this.clock.now();
    const held = await this.wallet.covering(organizationId, studentId);
    return held
      .filter((h) => h.balance > 0 && (h.expires_at === null || new Date(h.expires_at) > now))
      .map((h) => ({
        holding_id: h.holding_id,
        kind: h.kind,
        label: h.label,
        balance_text: formatHoldingBalance(h),
        balance: h.balance,
        expires_at: h.expires_at,
      }));
  }

  /**
   * The plan for a booking (course) or a product (null course) of `totalCents`. With `em` (a
   * checkout), the student's wallet lock is taken first and the holdings read under it, so the uses
   * written next cannot overdraw. A checkout that asked to cover the booking is refused (409) when
   * nothing held covers it now.
   */
  async plan(
    organizationId: string,
    studentId: string | null,
    choice: WalletChoice,
    course: CoveredCourse,
    partySize: number,
    totalCents: number,
    em?: EntityManager,
  ): Promise<ShownPlan> {
    const none: ShownPlan = { plan: { booking: null, money: [], due_cents: totalCents }, covered_by: null, wallet_money: [], walletCents: 0, owners: {} };
    // A typed code is checked even when nothing is due, so a wrong one is said at once.
    const card = choice.gift_card_code ? await this.giftCard(organizationId, choice.gift_card_code, em) : null;
    if (totalCents === 0 || ((!studentId || !this.asked(choice)) && !card)) return none;
    // The wallet locks of the buyer and of the code's card holder, in one order (no two checkouts wait on each other).
    if (em) for (const id of [...new Set([studentId, card?.studentId].filter((x): x is string => Boolean(x)))].sort()) await this.wallet.lock(em, id);
    const held = studentId && this.asked(choice) ? await this.wallet.covering(organizationId, studentId, em) : [];
    const usable = held.filter((h) =>
      h.kind === 'membership' || h.kind === 'pack' ? Boolean(choice.cover_booking) : Boolean(choice.use_wallet_money),
    );
    const owners: Record<string, string> = {};
    if (card && !usable.some((h) => h.holding_id === card.holding.holding_id)) {
      // Read again under the lock in a checkout (its balance may have moved since the quote).
      const fresh = em ? await this.giftCard(organizationId, choice.gift_card_code!, em) : card;
      usable.push({ ...fresh!.holding, label: 'Gift card', unit: 'cents', unlimited: false });
      owners[card.holding.holding_id] = card.studentId;
    }
    const plan = planWalletPayment({
      holdings: usable,
      course: choice.cover_booking ? course : null,
      party_size: partySize,
      total_cents: totalCents,
      now: this.clock.now(),
      use_money: Boolean(choice.use_wallet_money || card),
    });
    if (em && choice.cover_booking && course && !plan.booking)
      throw refusal(HttpStatus.CONFLICT, 'cover_booking', WALLET_MESSAGES.nothingCovers);
    const label = (id: string) => held.find((h) => h.holding_id === id)?.label ?? '';
    return {
      plan,
      covered_by: plan.booking ? { ...plan.booking, label: label(plan.booking.holding_id) } : null,
      wallet_money: plan.money.map((m) => ({ ...m, label: label(m.holding_id) })),
      walletCents: plan.money.reduce((sum, m) => sum + m.cents, 0),
      owners,
    };
  }

  /**
   * The gift card a typed code names in this store (only its hash is kept): 400 on the field when
   * no card has it, or when it has expired or has nothing left.
   */
  private async giftCard(organizationId: string, code: string, em?: EntityManager) {
    const hash = hashGiftCardCode(code);
    const found = hash ? await this.wallet.giftCardByCodeHash(organizationId, hash, em) : null;
    if (!found) throw refusal(HttpStatus.BAD_REQUEST, 'gift_card_code', WALLET_MESSAGES.giftCardUnknown);
    const expired = found.status === 'expired' || (found.expiresAt !== null && found.expiresAt <= this.clock.now());
    if (expired || found.balance <= 0) throw refusal(HttpStatus.BAD_REQUEST, 'gift_card_code', WALLET_MESSAGES.giftCardEmpty);
    const holding: CoveringHolding = {
      holding_id: found.holdingId,
      kind: 'gift_card',
      balance: found.balance,
      status: found.status,
      expires_at: found.expiresAt?.toISOString() ?? null,
      covers_activity_ids: null,
      covers_category_ids: null,
      created_at: new Date(0).toISOString(),
    };
    return { studentId: found.studentId, holding };
  }

  /** The gift cards' and credit's uses for the order, in the checkout's transaction (after `plan` with it). */
  async useMoney(em: EntityManager, organizationId: string, studentId: string, orderId: string, shown: ShownPlan): Promise<void> {
    for (const m of shown.plan.money)
      await this.wallet.use({ organizationId, studentId: shown.owners[m.holding_id] ?? studentId, holdingId: m.holding_id, amount: m.cents, orderId }, em);
  }

  /** The membership's booking or the pack's credits for the booking the order made, once per booking. */
  async useForBooking(
    em: EntityManager,
    organizationId: string,
    studentId: string,
    orderId: string,
    shown: ShownPlan,
    booked: { enrollmentId?: string; appointmentId?: string },
  ): Promise<void> {
    const booking = shown.plan.booking;
    if (!booking) return;
    await this.wallet.use(
      { organizationId, studentId, holdingId: booking.holding_id, amount: booking.amount, orderId, ...booked },
      em,
    );
  }

  /** What paid from holdings for an order, as its buyer reads it: "10-class pack: 1 credit". */
  async paidWith(organizationId: string, orderId: string): Promise<{ label: string; amount: string }[]> {
    const uses = await this.wallet.usesOfOrder(organizationId, orderId);
    return uses.map((u) => ({ label: u.label, amount: formatWalletAmount(u.amount, u.unit) }));
  }
}
