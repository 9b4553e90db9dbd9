import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiBody, ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotent } from '../../common/idempotency/idempotency.interceptor';
import { bookingUseSchema, refundBodySchema } from '@studio/contracts';
import { ZodResponse, ZodValidationException } from 'nestjs-zod';
import { z } from 'zod';
import { ApiInvalidBody, ApiUnexpectedBody } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { createZodDto } from '../../common/zod-dto';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { Auth } from '../identity/auth.guard';
import { PaymentsPort } from '../payments/payments.port';
import { OrderOutDto } from './orders.dto';
import { OrderDetailService } from './order-detail.service';
import { RefundsService } from './refunds.service';

class RefundBodyDto extends createZodDto(refundBodySchema) {}

class RefundQuoteDto extends createZodDto(
  z.object({
    order: z
      .object({ order_id: z.uuid(), order_number: z.number().int(), status: z.string(), total: z.number().int(), refunded_amount: z.number().int() })
      .nullable()
      .describe("The order that paid for the seat, or null (an enrollment made before orders)"),
    refundable: z.number().int().describe('cents that can be refunded now (0 when the order cannot be refunded)'),
    suggested_amount: z.number().int().describe("cents the course's cancellation policy refunds at this moment"),
    share: z.number().describe('share of the total the policy refunds now, 0 to 1'),
    policy: z.object({ id: z.number().int(), name: z.string(), rule: z.string() }).nullable(),
    starts_at: z.string(),
    has_payment_method: z.boolean(),
    refusal: z.string().nullable().describe('why the order cannot be refunded (the drawer\'s messages), or null'),
    credit_refusal: z.string().nullable().describe('why the order cannot be refunded as store credit, or null (issue 24)'),
    wallet_paid_cents: z.number().int().describe('cents the order was paid with gift cards or store credit (refunded first)'),
    outcomes: z
      .object({ card: z.string(), store_credit: z.string() })
      .describe('where the suggested amount goes with each refund_to: "$20.00 back to the card." / "$20.00 as store credit."'),
    use: bookingUseSchema.nullable().describe('the membership booking or pack credit that covered the booking: given back unless keep_use'),
  }),
) {}

const paymentMethodOut = z.object({ id: z.string(), brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() });
class PaymentMethodsDto extends createZodDto(z.object({ provider: z.enum(['demo', 'stripe']), payment_methods: z.array(paymentMethodOut) })) {}
class SetupDto extends createZodDto(z.object({ url: z.string() })) {}

/** POST /api/admin/order/{order_id}/refund (spec 001 §7). */
@ApiTags('orders')
@Controller('admin/order')
@Auth()
export class RefundsController {
  constructor(
    private readonly refunds: RefundsService,
    private readonly orders: OrderDetailService,
  ) {}

  @Post(':order_id/refund')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Refund an order: `amount` cents for a partial refund, or no amount for all that is left',
    description:
      "Only paid and partial_refund workbench orders that were charged, with a payment method on file. The refund is recorded as requested under the order's row lock (its amount reserved), asked of the provider with the ledger row's idempotency key, then its answer recorded. With an Idempotency-Key header, a retry with the same key and parameters answers the first answer again without refunding again; the same key with other parameters answers 422.",
  })
  @Idempotent('One per refund action (1 to 200 characters): a retry with the same key and parameters answers the first answer again (same status and body) without refunding again. Kept 24 hours.')
  @ApiBody({ type: RefundBodyDto, required: false })
  @ZodResponse({ status: 200, type: OrderOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Order not found' })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'The order cannot be refunded (status, $0.00 total, never charged, another source, no payment method, provider refusal)' })
  @ApiBadGatewayResponse({
    type: ErrorBodyDto,
    description: "The payment provider did not answer: the refund stays requested (its amount reserved) and is finished by the refund reconciler",
  })
  @ApiInvalidBody()
  async refund(
    @Ctx() ctx: RequestContext,
    @Param('order_id', UuidParamPipe) id: string,
    @Body() raw: unknown,
    @Headers('idempotency-key') key: string | undefined,
  ) {
    const parsed = refundBodySchema.safeParse(raw ?? {});
    if (!parsed.success) throw new ZodValidationException(parsed.error);
    // Checked by the interceptor (Idempotent); the refund's row carries it, so a retry after a crash finishes it.
    await this.refunds.refund(ctx, id, parsed.data, key);
    return this.orders.get(ctx, id);
  }
}

/** What Remove student offers to refund (spec 000 §5). */
@ApiTags('enrollments')
@Controller('admin/enrollment')
@Auth()
export class RemovalRefundController {
  constructor(private readonly refunds: RefundsService) {}

  @Get(':enrollment_id/refund-quote')
  @ApiOperation({ summary: "The student's order and the refund the course's cancellation policy suggests now, for Remove student" })
  @ZodResponse({ status: 200, type: RefundQuoteDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Enrollment not found' })
  quote(@Ctx() ctx: RequestContext, @Param('enrollment_id', UuidParamPipe) id: string) {
    return this.refunds.removalQuote(ctx, id);
  }
}

/** Remove student on an appointment (issue 22): the same quote as a session's. */
@ApiTags('orders')
@Controller('admin/appointments')
@Auth()
export class AppointmentRemovalRefundController {
  constructor(private readonly refunds: RefundsService) {}

  @Get(':appointment_id/refund-quote')
  @ApiOperation({ summary: "The student's order and the refund the course's cancellation policy suggests now, for Remove student on an appointment" })
  @ZodResponse({ status: 200, type: RefundQuoteDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Appointment not found (or cancelled)' })
  quote(@Ctx() ctx: RequestContext, @Param('appointment_id', UuidParamPipe) id: string) {
    return this.refunds.appointmentRemovalQuote(ctx, id);
  }
}

/** The studio's payment methods on file (spec 001 §6, §7) and adding one. */
@ApiTags('billing')
@Controller('admin/payment-methods')
@Auth()
export class PaymentMethodsController {
  constructor(
    private readonly payments: PaymentsPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: "The studio's payment methods on file (refunds need one)" })
  @ZodResponse({ status: 200, type: PaymentMethodsDto })
  async list(@Ctx() ctx: RequestContext) {
    const methods = await this.payments.listPaymentMethods(ctx.organizationId);
    // The same card saved twice (same brand, last digits and expiry) is one card to the studio
    // (issue 25: adding it again listed it twice); the first saved stands for it.
    const seen = new Set<string>();
    const cards = methods.filter((m) => {
      const card = `${m.brand}|${m.last4}|${m.expMonth}|${m.expYear}`;
      if (seen.has(card)) return false;
      seen.add(card);
      return true;
    });
    return {
      provider: this.payments.provider,
      payment_methods: cards.map((m) => ({ id: m.id, brand: m.brand, last4: m.last4, exp_month: m.expMonth, exp_year: m.expYear })),
    };
  }

  @Post('setup')
  @HttpCode(200)
  @ApiOperation({ summary: 'A page where the studio saves a payment method: Stripe Checkout in setup mode, or the demo page' })
  @ZodResponse({ status: 200, type: SetupDto })
  @ApiUnexpectedBody()
  async setup(@Ctx() ctx: RequestContext) {
    const base = (this.config.PUBLIC_APP_URL ?? `http://localhost:${this.config.PORT}`).replace(/\/+$/, '');
    const back = `${base}/admin/settings/billing`;
    return this.payments.createSetup({ organizationId: ctx.organizationId, successUrl: `${back}?added=1`, cancelUrl: back });
  }
}
