import { Injectable } from '@nestjs/common';
import { InProcessEvents } from '../../common/in-process-events';

/**
 * What the orders module announces once the change is committed. The loyalty module listens
 * (order.paid: the product lines earn their points; order.refunded with `full`: the points the order
 * earned are taken back). Listeners must be idempotent: a payment announced twice by the provider
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
    };

/** What the orders module announces (see InProcessEvents). */
@Injectable()
export class OrderEvents extends InProcessEvents<OrderEvent> {}
