import { Body, Controller, Headers, Param, Post } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { APPOINTMENT_MESSAGES, enrollBodySchema, PAYMENT_LINK_MESSAGES } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { notFound } from '../../common/api-error';
import { ApiInvalidBody } from '../../common/api-errors';
import { Idempotent } from '../../common/idempotency/idempotency.interceptor';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { createZodDto } from '../../common/zod-dto';
import { Auth } from '../identity/auth.guard';
import { PaymentLinksService } from './payment-links.service';

class InvoiceBodyDto extends createZodDto(enrollBodySchema) {}
class PaymentLinkSentDto extends createZodDto(
  z.object({
    order_id: z.uuid(),
    order_number: z.number().int(),
    url: z
      .string()
      .describe('the payment link mailed to the student (Stripe Checkout, or the demo payment page)'),
    expires_at: z.string().describe('ISO 8601: when the link, and the seat it holds, run out'),
  }),
) {}

/** Add student's "Send payment link" (spec 000 §2, §7 POST /api/admin/orders/invoice/{studentId}). */
@ApiTags('orders')
@Controller('admin/orders')
@Auth()
export class PaymentLinksController {
  constructor(private readonly links: PaymentLinksService) {}

  @Post('invoice/:student_id')
  @ApiOperation({
    summary:
      'Send a payment link: a pending workbench order at the session (or appointment course) price, the seat (or the held appointment) kept until the link expires (PAYMENT_LINK_TTL_HOURS), the link mailed to the student',
  })
  @ZodResponse({ status: 201, type: PaymentLinkSentDto })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: 'No such student, session or appointment in the organization',
  })
  @ApiConflictResponse({
    type: ErrorBodyDto,
    description: `Already enrolled, a link already waiting, no seat left, the session ended, or a free session; for an appointment: "${APPOINTMENT_MESSAGES.otherStudent}", "${APPOINTMENT_MESSAGES.alreadyOrdered}", "${APPOINTMENT_MESSAGES.notHeld}", "${APPOINTMENT_MESSAGES.holdExpired}" or "${APPOINTMENT_MESSAGES.freeCourse}"; "${PAYMENT_LINK_MESSAGES.linkEnded}" when the order ended while its page was being made`,
  })
  @ApiBadGatewayResponse({
    type: ErrorBodyDto,
    description: 'The payment provider did not create the checkout; the order failed and the seat is free',
  })
  @ApiInvalidBody()
  @Idempotent(
    'One per link sent (1 to 200 characters): a retry with the same key and parameters answers the first answer again; a retry after the first call died (its answer lost) resumes the same order and answers its link, mailed once. Kept 24 hours.',
  )
  async send(
    @Ctx() ctx: RequestContext,
    @Param('student_id', UuidParamPipe) studentId: string,
    @Body() body: InvoiceBodyDto,
    @Headers('idempotency-key') key: string | undefined,
  ) {
    if (body.appointment_id) return this.links.sendAppointment(ctx, studentId, body.appointment_id, key);
    if (!body.event_id) throw notFound('Event not found');
    return this.links.send(ctx, studentId, body.event_id, key);
  }
}
