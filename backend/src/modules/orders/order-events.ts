import { Injectable } from '@nestjs/common';
import { InProcessEvents } from '../../common/in-process-events';

/**
 * What the orders module announces once the change is committed. The loyalty module listens
 * (order.paid: the product lines earn their points; order.refunded with `full`: the points the order
 * earned are taken back; order.refund_failed with `wasFull`: the points that full refund took are
 * given back). Listeners must be idempotent: a payment announced twice by the provider
 * is announced here only once per state change, but a crash between commit and announce is
 * repaired by re-announcing.
 */
export type OrderEvent =
  | {
      type: 'order.paid';
      organizationId: string;
      orderId: string;
      studentId: string;
      /** Points the order earns: the sum of its product lines' points × quantity. */
      loyaltyPoints: number;
    }
  | {
      type: 'order.refunded';
      organizationId: string;
      orderId: string;
      studentId: string;
      full: boolean;
      amountCents: number;
      /** The refund's row in the order's refunds ledger. */
      refundId: string;
    }
  | {
      /** A refund failed or was canceled at the provider after it was made: its amount is back on the order. */
      type: 'order.refund_failed';
      organizationId: string;
      orderId: string;
      studentId: string;
      /** The order was fully refunded until this refund failed (it is not any more). */
      wasFull: boolean;
      amountCents: number;
      /** The failed refund's row in the order's refunds ledger. */
      refundId: string;
    };

/** What the orders module announces (see InProcessEvents). */
@Injectable()
export class OrderEvents extends InProcessEvents<OrderEvent> {}
