/* The checkout's request builder: what the quote and the Book call send for the buyer's choices. */
import { bookRequest, pointsSent, quoteRequest, type BookChoices, type PricedChoices } from './checkout-request';

const EVENT = '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
const COURSE = '5f0c7a5e-3c1d-4a8e-9d55-0e6f1b2a3c4d';

const priced = (patch: Partial<PricedChoices> = {}): PricedChoices => ({
  target: { event_id: EVENT },
  party: 1,
  code: '',
  giftCode: '',
  points: null,
  ...patch,
});

const booked = (patch: Partial<BookChoices> = {}): BookChoices => ({
  ...priced(),
  buyer: { first_name: 'Ada', last_name: 'Potter', email: 'ada@example.test' },
  answers: null,
  waiverToken: null,
  claimToken: null,
  ...patch,
});

const proof = { token: 'proof', points: 0, cover_booking: false, use_wallet_money: false };

describe('the checkout request builder', () => {
  it('quotes the session and the party, and no code, points or gift card the buyer did not give', () => {
    expect(quoteRequest(priced({ party: 3, code: '   ', giftCode: '' }))).toEqual({
      event_id: EVENT,
      party_size: 3,
    });
  });

  it('quotes an appointment by its course and start', () => {
    const start = '2026-12-01T15:00:00.000Z';
    expect(quoteRequest(priced({ target: { activity_id: COURSE, starts_at: start }, party: 2 }))).toEqual({
      activity_id: COURSE,
      starts_at: start,
      party_size: 2,
    });
  });

  it('sends the codes trimmed', () => {
    expect(quoteRequest(priced({ code: ' spring10 ', giftCode: ' GIFT-1 ' }))).toEqual({
      event_id: EVENT,
      party_size: 1,
      discount_code: 'spring10',
      gift_card_code: 'GIFT-1',
    });
  });

  it('sends the proof of the email only with something it pays, and only what it pays', () => {
    expect(pointsSent(null)).toEqual({});
    expect(pointsSent(proof)).toEqual({});
    expect(pointsSent({ ...proof, points: 250 })).toEqual({ points_token: 'proof', redeem_points: 250 });
    expect(pointsSent({ ...proof, cover_booking: true })).toEqual({ points_token: 'proof', cover_booking: true });
    expect(pointsSent({ ...proof, use_wallet_money: true })).toEqual({
      points_token: 'proof',
      use_wallet_money: true,
    });
  });

  it('books what was quoted, with the buyer', () => {
    const choices = booked({ party: 2, code: 'spring10', points: { ...proof, points: 100 }, giftCode: 'G' });
    expect(bookRequest(choices)).toEqual({
      ...quoteRequest(choices),
      first_name: 'Ada',
      last_name: 'Potter',
      email: 'ada@example.test',
    });
  });

  it('books with the answers, the signed waiver and an offer’s claim only when there are some', () => {
    expect(bookRequest(booked())).not.toHaveProperty('answers');
    expect(bookRequest(booked())).not.toHaveProperty('waiver_token');
    expect(bookRequest(booked())).not.toHaveProperty('claim_token');
    expect(
      bookRequest(booked({ answers: [{ size: 'l' }, {}], waiverToken: 'wt', claimToken: 'ct' })),
    ).toMatchObject({ answers: [{ size: 'l' }, {}], waiver_token: 'wt', claim_token: 'ct' });
  });
});
