import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RENEWAL_INTERVAL_UNITS, SUBSCRIPTION_STATUSES } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { createZodDto } from '../../common/zod-dto';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { orderActivityOut } from './order-activity.service';
import { SubscriptionsService } from './subscriptions.service';

/** Spec 001 §3 Subscription, with its plan and the money audit. */
export const subscriptionOut = z.object({
  subscription_id: z.uuid(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  created_at: z.string(),
  current_period_end: z.string().nullable().describe('when the period paid for ends'),
  cancelled_at: z.string().nullable(),
  order_id: z.uuid().nullable().describe('the order it was bought with, if any'),
  provider: z.enum(['demo', 'stripe']),
  provider_subscription_id: z.string(),
  plan: z.object({
    name: z.string(),
    product_id: z.uuid().nullable(),
    amount: z.number().int().describe('cents per interval'),
    currency: z.string(),
    interval_unit: z.enum(RENEWAL_INTERVAL_UNITS),
    interval_count: z.number().int(),
  }),
  Student: z.object({ student_id: z.uuid(), first_name: z.string(), last_name: z.string(), email: z.string(), phone: z.string().nullable() }),
  subscription_invoices: z
    .array(
      z.object({
        invoice_id: z.uuid(),
        provider_invoice_id: z.string(),
        amount: z.number().int().describe('cents paid'),
        currency: z.string(),
        paid_at: z.string(),
        receipt_url: z.string().nullable().describe("the provider's invoice page"),
      }),
    )
    .describe('Billing history: one per paid invoice, newest first'),
  activity: z.array(orderActivityOut).describe('The money audit of the subscription (cancellations, with who did them), oldest first'),
});
export class SubscriptionOutDto extends createZodDto(subscriptionOut) {}

/** Spec 001 §7 GET, DELETE /api/admin/subscription/{id}. */
@ApiTags('subscriptions')
@Controller('admin/subscription')
@Auth()
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Get(':subscription_id')
  @ApiOperation({ summary: 'One subscription: plan, student, billing history and its audit (spec 001 §3)' })
  @ZodResponse({ status: 200, type: SubscriptionOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Subscription not found (none in the organization)' })
  get(@Ctx() ctx: RequestContext, @Param('subscription_id', UuidParamPipe) id: string) {
    return this.subscriptions.get(ctx, id);
  }

  @Delete(':subscription_id')
  @ApiOperation({ summary: 'Cancel now (not at period end): the provider stops future payments; answers the cancelled subscription' })
  @ZodResponse({ status: 200, type: SubscriptionOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Subscription not found (none in the organization)' })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Subscription already cancelled (cancelled or expired), or Subscription is being cancelled (another cancel waits on the payment provider)' })
  @ApiBadGatewayResponse({ type: ErrorBodyDto, description: 'Failed to cancel subscription: the payment provider refused or did not answer' })
  cancel(@Ctx() ctx: RequestContext, @Param('subscription_id', UuidParamPipe) id: string) {
    return this.subscriptions.cancel(ctx, id);
  }
}
