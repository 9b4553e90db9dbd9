import { Activity } from '../modules/catalog/entities/activity.entity';
import { ActivityImage } from '../modules/catalog/entities/activity-image.entity';
import { CheckoutForm } from '../modules/catalog/entities/checkout-form.entity';
import { Instructor } from '../modules/catalog/entities/instructor.entity';
import { Location } from '../modules/catalog/entities/location.entity';
import { Media } from '../modules/catalog/entities/media.entity';
import { EsignTemplate, WaiverSubmission } from '../modules/waivers/waiver-submission.entity';
import { WaiverTemplate } from '../modules/catalog/entities/waiver-template.entity';
import { AuthSession } from '../modules/identity/auth-session.entity';
import { KnownDevice } from '../modules/identity/known-device.entity';
import { User } from '../modules/identity/user.entity';
import { Organization } from '../modules/organizations/organization.entity';
import { EventDay } from '../modules/scheduling/entities/event-day.entity';
import { Event } from '../modules/scheduling/entities/event.entity';
import { Enrollment } from '../modules/scheduling/entities/enrollment.entity';
import { Tag } from '../modules/scheduling/entities/tag.entity';
import { SeatHold } from '../modules/scheduling/entities/seat-hold.entity';
import { Appointment } from '../modules/scheduling/entities/appointment.entity';
import { Order } from '../modules/orders/entities/order.entity';
import { OrderLine } from '../modules/orders/entities/order-line.entity';
import { OrderActivity } from '../modules/orders/entities/order-activity.entity';
import { OrderRefund } from '../modules/orders/entities/order-refund.entity';
import { OrderFormSubmission } from '../modules/orders/entities/order-form-submission.entity';
import { Student } from '../modules/students/student.entity';
import { Product } from '../modules/products/entities/product.entity';
import { ProductImage } from '../modules/products/entities/product-image.entity';
import { ProductPrice } from '../modules/products/entities/product-price.entity';
import { LoyaltyProgram } from '../modules/loyalty/loyalty-program.entity';
import { DiscountCode } from '../modules/discounts/discount-code.entity';
import { DemoCheckoutSession, DemoPayment, DemoPaymentMethod, DemoRefund, DemoRefundRefusal } from '../modules/payments/demo/demo-ledger.entities';
import { StripeCustomer } from '../modules/payments/stripe/stripe-customer.entity';
import { Subscription } from '../modules/orders/entities/subscription.entity';
import { SubscriptionInvoice } from '../modules/orders/entities/subscription-invoice.entity';
import { StripeWebhookEvent } from '../modules/payments/stripe/stripe-webhook-event.entity';
import { SyncConnection } from '../modules/sync/entities/sync-connection.entity';
import { SyncConfig } from '../modules/sync/entities/sync-config.entity';
import { SyncMapping } from '../modules/sync/entities/sync-mapping.entity';
import { DemoSubscription } from '../modules/payments/demo/demo-subscription.entity';
import { WaitlistEntry } from '../modules/waitlist/waitlist-entry.entity';

/** All entities, registered explicitly (no folder scanning: the compiled and test runs see the same). */
export const entities = [
  Organization,
  User,
  AuthSession,
  KnownDevice,
  Location,
  Instructor,
  WaiverTemplate,
  Media,
  CheckoutForm,
  Activity,
  ActivityImage,
  Event,
  EventDay,
  Student,
  Order,
  OrderLine,
  OrderActivity,
  OrderRefund,
  OrderFormSubmission,
  Enrollment,
  Tag,
  SeatHold,
  Appointment,
  Product,
  ProductImage,
  ProductPrice,
  LoyaltyProgram,
  DiscountCode,
  DemoCheckoutSession,
  DemoPayment,
  DemoRefund,
  DemoRefundRefusal,
  DemoPaymentMethod,
  StripeCustomer,
  Subscription,
  SubscriptionInvoice,
  StripeWebhookEvent,
  DemoSubscription,
  WaiverSubmission,
  EsignTemplate,
  SyncConnection,
  SyncConfig,
  SyncMapping,
  WaitlistEntry,
];
