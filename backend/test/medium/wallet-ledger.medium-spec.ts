import { WALLET_KINDS, WALLET_MESSAGES, type WalletKind } from '@studio/contracts';
import fc from 'fast-check';
import { DomainError } from '../../src/common/domain-error';
import type { RequestContext } from '../../src/common/request-context';
import { WalletMemberships } from '../../src/modules/wallet/wallet-memberships';
import { WalletReadModel } from '../../src/modules/wallet/wallet-read-model';
import { WalletService } from '../../src/modules/wallet/wallet.service';
import { owner, seat, session, student, studio } from './fixtures';
import { Medium, mediumDatabase } from './medium';

/*
 * The wallet ledger's property (issue 24), in the medium tier (issue 32: WalletService against a real
 * database, no app): any sequence of grants, uses, returns, expiries and adjustments keeps every
 * holding's balance equal to the sum of its rows (each row's balance_after is the running sum) and
 * never negative, agrees with a plain model of what each step should do, and a refused step writes
 * nothing. The uses name real seats (enrollment rows), as the foreign keys require.
 */

const STUDENTS = 2;
const BOOKINGS = 5;
/** Seats booked before the runs (150 runs spend about 40: a refused use spends none); a run books more when fewer than 5 are left. */
const BOOKED_AHEAD = 60;

type Op =
  | { op: 'grant'; student: number; kind: WalletKind; amount: number; topUp: number | null; sameKind: boolean; expires: boolean }
  | { op: 'use'; holding: number; student: number; amount: number; booking: number }
  | { op: 'return'; use: number }
  | { op: 'expire'; holding: number; early: boolean }
  | { op: 'adjust'; holding: number; amount: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('grant' as const),
    student: fc.nat(STUDENTS - 1),
    kind: fc.constantFrom(...WALLET_KINDS),
    amount: fc.integer({ min: 1, max: 12 }),
    topUp: fc.option(fc.nat(9), { freq: 2 }),
    sameKind: fc.boolean(),
    expires: fc.boolean(),
  }),
  fc.record({
    op: fc.constant('use' as const),
    holding: fc.nat(9),
    student: fc.nat(STUDENTS - 1),
    amount: fc.integer({ min: 1, max: 5 }),
    booking: fc.nat(BOOKINGS - 1),
  }),
  fc.record({
    op: fc.constant('use' as const),
    holding: fc.nat(9),
    student: fc.nat(STUDENTS - 1),
    amount: fc.integer({ min: 1, max: 5 }),
    booking: fc.nat(BOOKINGS - 1),
  }),
  fc.record({ op: fc.constant('return' as const), use: fc.nat(9) }),
  fc.record({ op: fc.constant('expire' as const), holding: fc.nat(9), early: fc.boolean() }),
  fc.record({ op: fc.constant('adjust' as const), holding: fc.nat(9), amount: fc.integer({ min: -10, max: 10 }).filter((n) => n !== 0) }),
);

type ModelHolding = { id: string; student: number; kind: WalletKind; balance: number; expired: boolean; expiresAt: Date | null };
type ModelUse = { entryId: string; holding: ModelHolding; amount: number; returned: boolean };

describe('wallet ledger: property', () => {
  let m: Medium;
  let organizationId: string;
  let ctx: RequestContext;
  let students: string[];
  let wallet: WalletService;
  /**
   * Real bookings for the uses to name: seats of the property's students (enrollment rows, as Add
   * student writes them), each student once per session. A run takes BOOKINGS of them no use has named yet; one a use names is spent.
   */
  let book: (count: number) => Promise<void>;
  let unspent: string[] = [];
  const spent = new Set<string>();

  beforeAll(async () => {
    m = await mediumDatabase();
    const s = await studio(m, 'Property Studio');
    const user = await owner(m, s);
    organizationId = s.organization.id;
    ctx = { organizationId, userId: user.id, role: 'owner', sessionId: 'property' };
    students = [];
    for (let i = 0; i < STUDENTS; i++) students.push((await student(m, s, `Student${i}`)).id);
    const reads = new WalletReadModel(m.em, m.clock);
    wallet = new WalletService(m.em, m.clock, reads, new WalletMemberships(m.em, m.clock, reads));
    let days = 0;
    book = async (count) => {
      for (let made = 0; made < count; made += STUDENTS) {
        const event = await session(m, s, { capacity: STUDENTS, daysFromNow: 3 + (days++ % 300) });
        for (const studentId of students) unspent.push((await seat(m, s, event.id, studentId)).id);
      }
    };
    await book(BOOKED_AHEAD);
  }, 120000);
  afterAll(() => m?.close());

  const sql = <T extends object[]>(query: string, params: unknown[] = []) => m.sql<T>(query, params);
  const rowCount = async () => {
    const [row] = await sql<{ entries: string; holdings: string }[]>(
      `select (select count(*) from wallet_entry where organization_id = ?) as entries,
              (select count(*) from wallet_holding where organization_id = ?) as holdings`,
      [organizationId, organizationId],
    );
    return `${row.entries}/${row.holdings}`;
  };
  /** Runs a step the model says is refused: it must answer that status and message and write nothing. */
  const refused = async (step: Promise<unknown>, status: number, message: string) => {
    const before = await rowCount();
    let error: unknown;
    try {
      await step;
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(status);
    expect((error as DomainError).message).toBe(message);
    expect(await rowCount()).toBe(before);
  };

  it('any sequence keeps every balance the sum of its rows, never negative, as the model says; refusals write nothing', async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 30 }), async (ops) => {
        const holdings: ModelHolding[] = [];
        const uses: ModelUse[] = [];
        unspent = unspent.filter((id) => !spent.has(id));
        if (unspent.length < BOOKINGS) await book(BOOKINGS);
        const bookings = unspent.slice(0, BOOKINGS);
        const usedBookings = new Map<number, string>();
        const future = new Date(Date.now() + 86400_000);
        for (const step of ops) {
          if (step.op === 'grant') {
            const target = step.topUp === null || holdings.length === 0 ? null : holdings[step.topUp % holdings.length];
            if (!target) {
              const change = await wallet.grant({
                organizationId,
                studentId: students[step.student],
                kind: step.kind,
                label: `${step.kind} ${step.amount}`,
                amount: step.amount,
                expiresAt: step.expires ? future : undefined,
              });
              expect(change).toMatchObject({ created: true, balanceAfter: step.amount });
              holdings.push({ id: change.holdingId, student: step.student, kind: step.kind, balance: step.amount, expired: false, expiresAt: step.expires ? future : null });
              continue;
            }
            const kind = step.sameKind ? target.kind : WALLET_KINDS[(WALLET_KINDS.indexOf(target.kind) + 1) % WALLET_KINDS.length];
            const grant = wallet.grant({
              organizationId,
              studentId: students[target.student],
              kind,
              label: 'top-up',
              amount: step.amount,
              holdingId: target.id,
            });
            if (kind !== target.kind) await refused(grant, 409, WALLET_MESSAGES.kindMismatch);
            else if (target.expired) await refused(grant, 409, WALLET_MESSAGES.expired);
            else {
              target.balance += step.amount;
              expect(await grant).toMatchObject({ created: true, balanceAfter: target.balance });
            }
          } else if (step.op === 'use') {
            if (holdings.length === 0) continue;
            const target = holdings[step.holding % holdings.length];
            const use = wallet.use({
              organizationId,
              studentId: students[step.student],
              holdingId: target.id,
              amount: step.amount,
              enrollmentId: bookings[step.booking],
            });
            const first = usedBookings.get(step.booking);
            if (first) expect(await use).toMatchObject({ created: false, entryId: first });
            else if (step.student !== target.student) await refused(use, 409, WALLET_MESSAGES.notStudents);
            else if (target.expired) await refused(use, 409, WALLET_MESSAGES.expired);
            else if (target.balance < step.amount) {
              const unit = target.kind === 'membership' ? 'bookings' : target.kind === 'pack' ? 'credits' : 'cents';
              await refused(use, 409, WALLET_MESSAGES.notEnough[unit]);
            } else {
              target.balance -= step.amount;
              const change = await use;
              expect(change).toMatchObject({ created: true, balanceAfter: target.balance });
              usedBookings.set(step.booking, change.entryId);
              spent.add(bookings[step.booking]);
              uses.push({ entryId: change.entryId, holding: target, amount: step.amount, returned: false });
            }
          } else if (step.op === 'return') {
            if (uses.length === 0) continue;
            const use = uses[step.use % uses.length];
            const back = wallet.returnUse({ organizationId, useEntryId: use.entryId });
            if (use.returned) expect(await back).toMatchObject({ created: false });
            else if (use.holding.expired) await refused(back, 409, WALLET_MESSAGES.expired);
            else {
              use.holding.balance += use.amount;
              use.returned = true;
              expect(await back).toMatchObject({ created: true, balanceAfter: use.holding.balance });
            }
          } else if (step.op === 'expire') {
            if (holdings.length === 0) continue;
            const target = holdings[step.holding % holdings.length];
            const now = step.early ? new Date(future.getTime() - 60_000) : future;
            const due = !target.expired && target.expiresAt !== null && !step.early;
            const before = await rowCount();
            expect(await wallet.expire({ organizationId, holdingId: target.id, now })).toBe(due);
            if (due) {
              target.balance = 0;
              target.expired = true;
            } else expect(await rowCount()).toBe(before);
          } else {
            if (holdings.length === 0) continue;
            const target = holdings[step.holding % holdings.length];
            const adjust = wallet.adjust(ctx, students[target.student], target.id, { amount: step.amount, reason: 'property' });
            if (target.expired) await refused(adjust, 409, WALLET_MESSAGES.expired);
            else if (target.balance + step.amount < 0) await refused(adjust, 409, WALLET_MESSAGES.belowZero);
            else {
              target.balance += step.amount;
              expect(await adjust).toMatchObject({ created: true, balanceAfter: target.balance });
            }
          }
        }

        // Every holding of the organization (this run's and the earlier runs'): the last row's
        // balance_after is the sum of its rows, each row's is the running sum, none is negative.
        const rows = await sql<{ id: string; total: string | null; last: number | null; bad: string }[]>(
          `select h.id,
                  (select sum(e.amount) from wallet_entry e where e.holding_id = h.id) as total,
                  (select e.balance_after from wallet_entry e where e.holding_id = h.id order by e.seq desc limit 1) as last,
                  (select count(*) from (
                     select e.balance_after, sum(e.amount) over (order by e.seq) as running
                       from wallet_entry e where e.holding_id = h.id) x
                    where x.balance_after <> x.running or x.balance_after < 0) as bad
             from wallet_holding h where h.organization_id = ?`,
          [organizationId],
        );
        for (const row of rows) {
          expect(Number(row.bad)).toBe(0);
          expect(Number(row.last ?? 0)).toBe(Number(row.total ?? 0));
          expect(Number(row.last ?? 0)).toBeGreaterThanOrEqual(0);
        }
        // The model's balances are the admin's: the wallet reads what the rows say.
        for (let s = 0; s < STUDENTS; s++) {
          const read = await wallet.wallet(organizationId, students[s]);
          for (const h of holdings.filter((x) => x.student === s)) {
            const shown = read.holdings.find((x) => x.holding_id === h.id)!;
            expect(shown.balance).toBe(h.balance);
            expect(shown.status).toBe(h.expired ? 'expired' : 'active');
          }
        }
      }),
      { numRuns: 150 },
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
