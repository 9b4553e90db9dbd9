/**
 * The store's checkout as the storefront API calls it (issues 21, 22, 24, 31; split by job in issue
 * 33): a quote or a checkout goes to its flow (a session, an appointment course's time, a product),
 * the waiver calls to the checkout's waiver part, the order's page to the order view. The jobs live
 * in ./store-checkout/: pricing (with the wallet), the one order writer, the settle step, the
 * payment start, the confirmation mails, the order view, the waiver and the outbox handlers.
 */
import { Injectable } from '@nestjs/common';
import {
  type CheckoutPayload,
  type CheckoutQuote,
  type CheckoutQuotePayload,
  type CheckoutResult,
  type PublicOrder,
  type StoreWaiverRequest,
  type StoreWaiverStart,
  type StoreWaiverStatus,
} from '@studio/contracts';
import { Organization } from '../organizations/organization.entity';
import { AppointmentCheckout } from './store-checkout/appointment-checkout';
import { StoreCheckoutWaiver } from './store-checkout/checkout-waiver';
import { StoreOrderView } from './store-checkout/order-view';
import { ProductCheckout } from './store-checkout/product-checkout';
import { SessionCheckout } from './store-checkout/session-checkout';

@Injectable()
export class StoreCheckoutService {
  constructor(
    private readonly sessions: SessionCheckout,
    private readonly appointments: AppointmentCheckout,
    private readonly products: ProductCheckout,
    private readonly waivers: StoreCheckoutWaiver,
    private readonly view: StoreOrderView,
  ) {}

  /** What the party would cost now, and the seats left: display only, the checkout prices again. */
  quote(organization: Organization, input: CheckoutQuotePayload): Promise<CheckoutQuote> {
    if (input.activity_id) return this.appointments.quote(organization, input);
    return this.sessions.quote(organization, input);
  }

  checkout(organization: Organization, input: CheckoutPayload): Promise<CheckoutResult> {
    if (input.product_id) return this.products.checkout(organization, input.product_id, input);
    if (input.activity_id) return this.appointments.checkout(organization, input);
    return this.sessions.checkout(organization, input);
  }

  /** POST waiver: a signing of the course's waiver for the buyer as typed (StoreCheckoutWaiver). */
  waiver(organization: Organization, input: StoreWaiverRequest): Promise<StoreWaiverStart> {
    return this.waivers.start(organization, input);
  }

  /** GET waiver/status: the signing named by the token, in this store; 404 for any other token. */
  waiverStatus(organization: Organization, token: string): Promise<StoreWaiverStatus> {
    return this.waivers.status(organization, token);
  }

  /** The order as its buyer sees it, for whoever holds its token; anything else is 404. */
  order(organization: Organization, orderId: string, token: string): Promise<PublicOrder> {
    return this.view.order(organization, orderId, token);
  }
}
