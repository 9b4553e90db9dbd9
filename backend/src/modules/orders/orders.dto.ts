import { APPOINTMENT_STATUS_VALUES, ORDER_LINE_KINDS, ORDER_STATUSES, REFUND_DESTINATIONS, REFUND_ORIGINS, SUBSCRIPTION_STATUSES } from '@studio/contracts';
import { z } from 'zod';
import { createZodDto } from '../../common/zod-dto';
import { orderActivityOut } from './order-activity.service';

/** One row of the refunds ledger as the order drawer shows it. */
export const orderRefundOut = z.object({
  refund_id: z.uuid(),
  amount: z.number().int().describe('cents'),
  reason: z.string(),
  actor: z.string().nullable().describe("the admin's name; null for a refund made at the payment provider"),
  status: z.string().describe("the provider's status: succeeded, pending, requires_action, failed or canceled"),
  provider_refund_id: z.string().nullable(),
  origin: z
    .enum(REFUND_ORIGINS)
    .describe('app: made in this back office; provider: made at the payment provider itself (the Stripe dashboard), recorded from its webhooks; its amount is what it counted on the order'),
  refund_to: z.enum(REFUND_DESTINATIONS).describe("card: back to the card; store_credit: added to the student's store credit (made at once, shown as Store credit)"),
  created_at: z.string(),
});

/** The order's student (spec 001 §3 Order.Student). */
const orderStudent = z.object({
  student_id: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
});

export const orderLineOut = z.object({
  line_id: z.uuid(),
  kind: z.enum(ORDER_LINE_KINDS),
  event_id: z.uuid().nullable(),
  product_id: z.uuid().nullable(),
  product_price_id: z.uuid().nullable(),
  description: z.string(),
  unit_price: z.number().int().describe('cents'),
  quantity: z.number().int(),
  discount: z.number().int().describe('cents, for the whole line'),
  total: z.number().int().describe('cents: unit_price × quantity − discount'),
  loyalty_points: z.number().int(),
});

/** Spec 001 §3 Order, plus its lines. */
export const orderOut = z.object({
  order_id: z.uuid(),
  order_number: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  source: z.string().describe("workbench, or the ticketing service's name for synced orders"),
  description: z.string(),
  total: z.number().int().describe('cents'),
  refunded_amount: z.number().int().describe('cents'),
  stripe_payment_intent_id: z.string().nullable(),
  paymentIntent: z
    .object({ charges: z.object({ receipt_url: z.string().nullable() }) })
    .nullable()
    .describe('spec 001 §3 paymentIntent.charges.receipt_url; null when no payment was started'),
  created_at: z.string(),
  discount_code: z.string().nullable().describe('The discount code the buyer used at the store, if any'),
  points_redeemed: z
    .number()
    .int()
    .describe('Loyalty points the buyer spent on the order at the store (100 points = $1.00); 0 when none'),
  Subscription: z
    .array(z.object({ subscription_id: z.uuid(), status: z.enum(SUBSCRIPTION_STATUSES), created_at: z.string(), plan_name: z.string() }))
    .describe('Subscriptions bought with the order; each opens the subscription drawer'),
  submissions: z
    .array(
      z.object({
        submission_id: z.uuid(),
        created_at: z.string(),
        ticket: z.number().int().nullable().describe('The ticket (seat) the answers are for, from 1; null for the order'),
        answers: z.array(z.object({ label: z.string().describe("The field's label when it was answered"), value: z.string() })),
      }),
    )
    .describe("The checkout form's answers given at the store: one set per order, or one per ticket"),
  Student: orderStudent,
  lines: z.array(orderLineOut),
  activity: z.array(orderActivityOut).describe('The money audit of the order: payment-link sends, payments, refunds, oldest first'),
  refunds: z.array(orderRefundOut).describe('The refunds ledger of the order, oldest first'),
  appointment: z
    .object({
      appointment_id: z.uuid(),
      activity_id: z.uuid(),
      course_name: z.string(),
      starts_at: z.string(),
      ends_at: z.string(),
      time_zone: z.string().describe("The location's IANA zone"),
      status: z.enum(APPOINTMENT_STATUS_VALUES),
    })
    .nullable()
    .optional()
    .describe('The appointment the order pays for (course and time), when it pays for one'),
});
export class OrderOutDto extends createZodDto(orderOut) {}

export const orderListItem = z.object({
  order_id: z.uuid(),
  order_number: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  source: z.string(),
  total: z.number().int(),
  refunded_amount: z.number().int(),
  created_at: z.string(),
  Student: orderStudent.omit({ phone: true }),
});
export class OrderListDto extends createZodDto(
  z.object({
    orders: z.array(orderListItem),
    /** Null on a page asked for with a cursor: the count of the first page stands. */
    totalCount: z.number().int().nullable(),
    currentPage: z.number().int(),
    itemsPerPage: z.number().int(),
    /** Asks for the next page (same query, `cursor=`); null on the last page. */
    next_cursor: z.string().nullable(),
  }),
) {}
