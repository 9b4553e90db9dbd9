import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { REFUND_DESTINATIONS, SESSION_CANCEL_MESSAGES as M, SESSION_CANCEL_OUTCOMES, SESSION_CANCEL_REFUNDS, sessionCancelSchema } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { ApiError } from '../../common/api-error';
import { ApiInvalidBody } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { createZodDto } from '../../common/zod-dto';
import { Auth } from '../identity/auth.guard';
import { PaymentsPort } from '../payments/payments.port';
import { SessionCancellationService } from '../scheduling/session-cancellation.service';

class SessionCancelDto extends createZodDto(sessionCancelSchema) {}

class CancellationDto extends createZodDto(
  z.object({
    event_id: z.uuid(),
    refund: z.enum(SESSION_CANCEL_REFUNDS),
    refund_to: z.enum(REFUND_DESTINATIONS).describe("where a full refund goes: the card, or each student's store credit"),
    reason: z.string(),
    cancelled_at: z.string(),
    total: z.number().int().describe('students of the session when it was cancelled'),
    processed: z.number().int().describe('students processed so far (seat removed, refund settled, mail queued)'),
    refunded_cents: z.number().int().describe('cents refunded so far, all students together'),
    students: z.array(
      z.object({
        enrollment_id: z.uuid(),
        student_id: z.uuid(),
        first_name: z.string(),
        last_name: z.string(),
        email: z.string(),
        order_id: z.uuid().nullable(),
        outcome: z.enum(SESSION_CANCEL_OUTCOMES).describe('pending until the student is processed'),
        refund_cents: z.number().int(),
        note: z.string().nullable().describe('why the order was not refunded, or why its refund failed'),
        processed_at: z.string().nullable(),
      }),
    ),
  }),
) {}

/**
 * The studio cancels a session with students (issue 23). Served by the orders module because the
 * refunds need its rules (a payment method on file); the cancel itself is scheduling's.
 */
@ApiTags('events')
@Controller('admin/events')
@Auth()
export class SessionCancelController {
  constructor(
    private readonly cancellations: SessionCancellationService,
    private readonly payments: PaymentsPort,
  ) {}

  @Post(':event_id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a session with its students: refund everyone in full, or no refund, with the reason',
    description:
      'Marks the session cancelled (it stays listed in the admin with its students as removed, and is no longer bookable) and announces session.cancelled with one outbox row per student in the same transaction. Each student is then processed at least once, idempotently: the seat removed, refunded all that is left of their order through the refunds ledger (to the card, or with refund_to store_credit to their store credit; or not at all), the membership booking or pack credit that covered the seat given back, points given back as a full refund does, and mailed. Unpaid payment links holding seats are cancelled; the Eventbrite event and Zoom meeting are cancelled through sync. Answers the cancellation; GET …/cancellation shows the progress.',
  })
  @ZodResponse({ status: 200, type: CancellationDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Event not found (or another organization’s)' })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Already cancelled, already ended, or refunds asked with no payment method on file' })
  @ApiInvalidBody()
  async cancel(@Ctx() ctx: RequestContext, @Param('event_id', UuidParamPipe) id: string, @Body() body: SessionCancelDto) {
    // Refunds need a payment method on file (spec 001 §6): refused before anything changes. Store
    // credit asks no provider: no payment method needed. Asked before the session's lock is taken
    // (no outside call inside a transaction); the refusal applies once the session has students.
    let refusal: unknown = null;
    if (body.refund === 'full' && body.refund_to !== 'store_credit') {
      try {
        if ((await this.payments.listPaymentMethods(ctx.organizationId)).length === 0) refusal = new ApiError(HttpStatus.CONFLICT, M.noPaymentMethod);
      } catch (error) {
        refusal = error;
      }
    }
    await this.cancellations.cancel(ctx, id, body, async () => {
      if (refusal) throw refusal;
    });
    return this.cancellations.view(ctx, id);
  }

  @Get(':event_id/cancellation')
  @ApiOperation({ summary: "A cancelled session's cancellation: the choice, the reason and each student's outcome (the drawer's progress)" })
  @ZodResponse({ status: 200, type: CancellationDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'The session is not cancelled, or not the organization’s' })
  cancellation(@Ctx() ctx: RequestContext, @Param('event_id', UuidParamPipe) id: string) {
    return this.cancellations.view(ctx, id);
  }
}
