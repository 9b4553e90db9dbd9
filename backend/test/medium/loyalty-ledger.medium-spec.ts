import { CHECKOUT_MESSAGES } from '@studio/contracts';
import { LoyaltyProgram } from '../../src/modules/loyalty/loyalty-program.entity';
import { LoyaltyLedgerService } from '../../src/modules/loyalty/loyalty-ledger.service';
import { LoyaltyService } from '../../src/modules/loyalty/loyalty.service';
import { Organization } from '../../src/modules/organizations/organization.entity';
import { order, owner, refund, student, studio, Studio } from './fixtures';
import { Medium, mediumDatabase } from './medium';

/*
 * The loyalty ledger's money rules (issue 32: moved down from the end-to-end tier, which keeps one
 * path per journey): points spent on an order come back in part when part of it is refunded by a
 * cancellation policy (rounded down, once per refund, never more than was spent), and in full when
 * the order is refunded in full or fails, once; a balance set by an owner records the difference.
 * LoyaltyLedgerService against a real database: every entry names a real order and refund.
 */
describe('loyalty ledger: redemptions given back', () => {
  let m: Medium;
  let s: Studio;
  let ledger: LoyaltyLedgerService;
  let ctx: { organizationId: string; userId: string; role: 'owner'; sessionId: string };

  beforeAll(async () => {
    m = await mediumDatabase();
    s = await studio(m, 'Points Studio');
    const user = await owner(m, s);
    ctx = { organizationId: s.organization.id, userId: user.id, role: 'owner', sessionId: 'medium' };
    await m.run(async (em) => {
      em.create(LoyaltyProgram, { organization: em.getReference(Organization, s.organization.id), status: 'active' });
      await em.flush();
    });
    ledger = new LoyaltyLedgerService(m.em, new LoyaltyService(m.em));
  });
  afterAll(() => m?.close());

  /** A student holding `points`, who spends `spent` of them on a new order. */
  async function spent(points: number, spentPoints: number) {
    const buyer = await student(m, s);
    await ledger.setBalance(ctx, buyer.id, points);
    const paid = await order(m, s, buyer.id, { totalCents: 9_000 });
    await m.em.fork().transactional((em) => ledger.redeemForOrder(em, s.organization.id, buyer.id, paid.id, spentPoints));
    return { buyer, paid };
  }

  it('a part refund gives back its share of the points spent, rounded down, once per refund', async () => {
    const { buyer, paid } = await spent(1_000, 333);
    expect(await ledger.balance(s.organization.id, buyer.id)).toBe(667);
    const half = await refund(m, paid, 4_500);
    expect(await ledger.returnRedemptionPart(s.organization.id, paid.id, half.id, 0.5)).toBe(true);
    // 333 × 0.5 = 166.5: 166 come back, the half point stays spent.
    expect(await ledger.balance(s.organization.id, buyer.id)).toBe(667 + 166);
    // The same refund announced again gives nothing more.
    expect(await ledger.returnRedemptionPart(s.organization.id, paid.id, half.id, 0.5)).toBe(false);
    expect(await ledger.balance(s.organization.id, buyer.id)).toBe(833);
  });

  it('part refunds never give back more than was spent; a share over 1 counts as all of it', async () => {
    const { buyer, paid } = await spent(500, 100);
    const first = await refund(m, paid, 7_000);
    expect(await ledger.returnRedemptionPart(s.organization.id, paid.id, first.id, 0.7)).toBe(true);
    const second = await refund(m, paid, 7_000);
    // 70 came back; the second 70% has only 30 left to give.
    expect(await ledger.returnRedemptionPart(s.organization.id, paid.id, second.id, 1.5)).toBe(true);
    expect(await ledger.balance(s.organization.id, buyer.id)).toBe(500);
    const third = await refund(m, paid, 100);
    expect(await ledger.returnRedemptionPart(s.organization.id, paid.id, third.id, 0.01)).toBe(false);
    const rows = await m.sql<{ points: number }[]>(
      `select points from loyalty_entry where order_id = ? and reason = 'redemption_returned' order by created_at, id`,
      [paid.id],
    );
    expect(rows.map((r) => Number(r.points))).toEqual([70, 30]);
  });

  it('a whole refund after a part one gives back only what is left, once however often it is announced', async () => {
    const { buyer, paid } = await spent(1_000, 333);
    const part = await refund(m, paid, 3_000);
    await ledger.returnRedemptionPart(s.organization.id, paid.id, part.id, 1 / 3);
    expect(await ledger.balance(s.organization.id, buyer.id)).toBe(667 + 111);
    expect(await ledger.returnRedemption(s.organization.id, paid.id)).toBe(true);
    expect(await ledger.returnRedemption(s.organization.id, paid.id)).toBe(false);
    expect(await ledger.balance(s.organization.id, buyer.id)).toBe(1_000);
  });

  it('a zero or negative share, or an order that spent no points, gives back nothing and writes nothing', async () => {
    const { paid } = await spent(200, 50);
    const r = await refund(m, paid, 100);
    expect(await ledger.returnRedemptionPart(s.organization.id, paid.id, r.id, 0)).toBe(false);
    expect(await ledger.returnRedemptionPart(s.organization.id, paid.id, r.id, -1)).toBe(false);
    const buyer = await student(m, s);
    const unspent = await order(m, s, buyer.id);
    const none = await refund(m, unspent, 100);
    expect(await ledger.returnRedemptionPart(s.organization.id, unspent.id, none.id, 0.5)).toBe(false);
    expect(await ledger.returnRedemption(s.organization.id, unspent.id)).toBe(false);
    const [{ n }] = await m.sql<{ n: string }[]>(`select count(*) as n from loyalty_entry where order_id in (?, ?) and reason = 'redemption_returned'`, [paid.id, unspent.id]);
    expect(Number(n)).toBe(0);
  });

  it('spending more than the balance is refused with the spec message, and nothing is written', async () => {
    const buyer = await student(m, s);
    await ledger.setBalance(ctx, buyer.id, 40);
    const o = await order(m, s, buyer.id);
    await expect(m.em.fork().transactional((em) => ledger.redeemForOrder(em, s.organization.id, buyer.id, o.id, 41))).rejects.toMatchObject({
      response: expect.objectContaining({ message: CHECKOUT_MESSAGES.pointsInsufficient(40) }),
    });
    expect(await ledger.balance(s.organization.id, buyer.id)).toBe(40);
  });
});
