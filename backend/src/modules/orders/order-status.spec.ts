import { statusAfterRefund } from './order-status';

describe('statusAfterRefund', () => {
  it('a refund of all the money: refunded', () => {
    expect(statusAfterRefund(10000, 10000, 'paid')).toBe('refunded');
    expect(statusAfterRefund(10000, 10000, 'partial_refund')).toBe('refunded');
  });

  it('a refund of some of it: partial_refund', () => {
    expect(statusAfterRefund(10000, 2500, 'paid')).toBe('partial_refund');
    expect(statusAfterRefund(10000, 9999, 'partial_refund')).toBe('partial_refund');
  });

  it('a failed refund gives the money back: partial_refund while another refund stands, paid when none does', () => {
    expect(statusAfterRefund(10000, 2500, 'refunded')).toBe('partial_refund');
    expect(statusAfterRefund(10000, 0, 'refunded')).toBe('paid');
    expect(statusAfterRefund(10000, 0, 'partial_refund')).toBe('paid');
  });

  it('nothing refunded: any other status stays', () => {
    expect(statusAfterRefund(10000, 0, 'paid')).toBe('paid');
    expect(statusAfterRefund(10000, 0, 'pending')).toBe('pending');
  });

  it('a free order: refunded only when the whole sale is given back', () => {
    expect(statusAfterRefund(0, 0, 'paid')).toBe('paid');
    expect(statusAfterRefund(0, 0, 'paid', 'part')).toBe('paid');
    expect(statusAfterRefund(0, 0, 'paid', 'whole')).toBe('refunded');
  });

  it('a sale given back whole: refunded, whatever was refunded before', () => {
    expect(statusAfterRefund(6000, 6000, 'paid', 'whole')).toBe('refunded');
    expect(statusAfterRefund(6000, 6000, 'partial_refund', 'whole')).toBe('refunded');
  });

  it('some seats of a sale given back: partial_refund, even when they were all it cost', () => {
    expect(statusAfterRefund(6000, 2000, 'paid', 'part')).toBe('partial_refund');
    expect(statusAfterRefund(6000, 6000, 'paid', 'part')).toBe('partial_refund');
  });
});
