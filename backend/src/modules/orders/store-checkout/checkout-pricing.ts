/**
 * A store checkout's price (issue 33, split from store-checkout.service.ts): the party's price with
 * its discount code and points by the one pricing function, then what the buyer's wallet pays of it
 * (a membership or pack covering the booking, gift cards and credit), and the points proof checked.
 * Used by the quotes and by every checkout flow; writes nothing.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  CHECKOUT_MESSAGES as M,
  discountRefusal,
  priceParty,
  type CheckoutQuotePayload,
} from '@studio/contracts';
import { DiscountsService } from '../../discounts/discounts.service';
import { LoyaltyCodesService } from '../../loyalty/loyalty-codes.service';
import { LoyaltyLedgerService } from '../../loyalty/loyalty-ledger.service';
import { LoyaltyService } from '../../loyalty/loyalty.service';
import { Organization } from '../../organizations/organization.entity';
import type { StoreSessionRow } from '../store-session.query';
import { StoreWalletPayment, type ShownPlan } from '../store-wallet';
import { invalidCode, pointsRefusal, type Priced } from './checkout-shared';
import { Clock } from '../../../common/clock';

@Injectable()
export class StoreCheckoutPricing {
  constructor(
    private readonly discounts: DiscountsService,
    private readonly storeWallet: StoreWalletPayment,
    private readonly pointsCodes: LoyaltyCodesService,
    private readonly loyalty: LoyaltyService,
    private readonly ledger: LoyaltyLedgerService,
    private readonly clock: Clock,
  ) {}

  /**
   * The price, then what the student's holdings pay of it (issue 24) in the written order: a
   * membership or pack covering the booking makes it cost nothing more (no points, no code counted:
   * the order's total is 0); gift cards and credit pay what they can of the rest. With `em` (a
   * checkout) the holdings are read under the student's wallet lock, and a cover asked for but not
   * possible now is refused.
   */
  async priceWithWallet(
    organization: Organization,
    course: Pick<StoreSessionRow, 'activity_id' | 'name' | 'free' | 'category_id'>,
    input: CheckoutQuotePayload,
    unitPriceCents: number,
    proofStudentId: string | null,
    em?: EntityManager,
  ): Promise<{ priced: Priced; shown: ShownPlan }> {
    const priced = await this.price(organization, course, input, unitPriceCents);
    if (input.cover_booking) {
      // The total before points: a covered booking spends none.
      const covered = { activity_id: course.activity_id, category_id: course.category_id };
      const beforePoints = priced.total + priced.pointsCents;
      const shown = await this.storeWallet.plan(organization.id, proofStudentId, { cover_booking: true }, covered, input.party_size, beforePoints, em);
      if (shown.plan.booking)
        return {
          priced: { ...priced, discount: 0, total: 0, pointsRedeemed: 0, pointsCents: 0, code: null, codeId: null, line: { ...priced.line, discount_cents: 0 } },
          shown,
        };
    }
    // Gift cards and credit pay what they can of the total after points; the card the rest.
    const money = await this.storeWallet.plan(
      organization.id,
      proofStudentId,
      { use_wallet_money: input.use_wallet_money, gift_card_code: input.gift_card_code },
      null,
      input.party_size,
      priced.total,
      em,
    );
    return { priced, shown: money };
  }

  /**
   * The student whose points the quote or checkout spends, by the proof token of points/verify, or
   * null when none is sent. Points named without a token, a token that is not (or no longer) valid,
   * a programme turned off, or more points than the balance are refused.
   */
  async pointsStudent(
    organization: Organization,
    input: Pick<CheckoutQuotePayload, 'points_token' | 'redeem_points' | 'cover_booking' | 'use_wallet_money'>,
  ): Promise<string | null> {
    if (!input.points_token) {
      if (input.redeem_points) throw pointsRefusal(HttpStatus.BAD_REQUEST, 'points_token', M.pointsNeedCode);
      this.storeWallet.requireProof(input, null);
      return null;
    }
    const studentId = await this.pointsCodes.studentForToken(organization.id, input.points_token);
    if (!studentId) throw pointsRefusal(HttpStatus.BAD_REQUEST, 'points_token', M.pointsTokenInvalid);
    // The proof also lets the student's holdings pay (issue 24): the programme matters only for points.
    if (input.redeem_points && !(await this.loyalty.isActive(organization.id)))
      throw pointsRefusal(HttpStatus.BAD_REQUEST, 'redeem_points', M.pointsNotActive);
    const balance = await this.ledger.balance(organization.id, studentId);
    if ((input.redeem_points ?? 0) > balance)
      throw pointsRefusal(HttpStatus.CONFLICT, 'redeem_points', M.pointsInsufficient(balance));
    return studentId;
  }

  /** The party's price with the code, by the one pricing function; a code that gives nothing says why. */
  private async price(
    organization: Organization,
    session: Pick<StoreSessionRow, 'activity_id' | 'name' | 'free'>,
    input: Pick<CheckoutQuotePayload, 'discount_code' | 'party_size' | 'points_token' | 'redeem_points'>,
    unitPriceCents: number,
  ): Promise<Priced> {
    const at = this.clock.now();
    let rule = null;
    if (input.discount_code) {
      rule = await this.discounts.ruleByCode({ organizationId: organization.id }, input.discount_code);
      if (!rule) throw invalidCode(M.codeUnknown);
      const refusal = discountRefusal(rule, session.activity_id, at);
      if (refusal) throw invalidCode(refusal);
    }
    const priced = priceParty({
      description: session.name,
      activityId: session.activity_id,
      unitPriceCents: session.free ? 0 : unitPriceCents,
      partySize: input.party_size,
      rule,
      at,
      redeemPoints: input.points_token ? input.redeem_points : 0,
    });
    return { ...priced, code: rule?.code ?? null, codeId: rule?.id ?? null };
  }
}
