import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import {
  ApiBody,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import {
  ATTENDANCE_VALUES,
  CREDIT_MESSAGES,
  ENROLLMENT_SORT_FIELDS,
  ORDER_STATUSES,
  EXPORT_FILE_NAME,
  exportEnrollmentsSchema,
  guestCountSchema,
  removeEnrollmentBodySchema,
} from '@studio/contracts';
import type { FastifyReply } from 'fastify';
import { ZodResponse, ZodValidationException } from 'nestjs-zod';
import { createZodDto } from '../../common/zod-dto';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { EnrollmentExportService } from './enrollment-export.service';
import { WAIVER_STATUS_VALUES } from './enrollment-columns';
import { parseEnrollmentQuery } from './enrollment-query';
import { EnrollmentGridQuery, mapEnrollmentRow } from './enrollment-grid.query';
import { SeatAdminService } from './seat-admin.service';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';

class GuestCountDto extends createZodDto(guestCountSchema) {}
class ExportDto extends createZodDto(exportEnrollmentsSchema) {}
class RemoveEnrollmentDto extends createZodDto(removeEnrollmentBodySchema) {}
const enrollmentOut = z.object({
  enrollment_id: z.uuid(),
  student_id: z.uuid(),
  created_at: z.string(),
  checked_in_at: z.string().nullable().describe('When the student was checked in; null when not'),
  attendance: z
    .enum(ATTENDANCE_VALUES)
    .describe('checked_in; before the session ends not_checked_in, after it no_show'),
  guestCount: z.number().int(),
  waiverStatus: z
    .enum(WAIVER_STATUS_VALUES)
    .describe(
      'Follows the waiver submission: signed, pending, expired; not_required when the course requires none',
    ),
  Student: z.object({
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    User: z.object({ user_id: z.string() }).nullable(),
  }),
  GuestEnrollments: z
    .array(z.object({ guest_number: z.number().int().min(1) }))
    .describe('One entry per guest seat of this enrollment'),
  Order: z
    .object({
      order_id: z.uuid(),
      order_number: z.number().int().nullable(),
      totalPrice: z.number().int(),
      refundedPrice: z.number().int().describe('Cents refunded of the order so far'),
      status: z.enum(ORDER_STATUSES).describe('The order\'s status: refunded and partial_refund show on the seat'),
    })
    .nullable(),
  paid_with: z.string().nullable().describe('The membership or class pack the seat was booked on (issue 24), or null'),
});
const heldSeatOut = z.object({
  hold_id: z.uuid(),
  kind: z
    .enum(['payment_link', 'waitlist_offer', 'checkout'])
    .describe('A payment link not paid yet, a waitlist offer not claimed yet, or a store checkout being paid'),
  seats: z.number().int(),
  expires_at: z.string().describe('When the hold stops counting unless paid'),
  name: z.string(),
  email: z.string(),
  student_id: z.uuid().nullable(),
  Order: z
    .object({ order_id: z.uuid(), order_number: z.number().int().nullable(), totalPrice: z.number().int() })
    .nullable(),
});
class EnrollmentPageDto extends createZodDto(
  z.object({
    enrollments: z.array(enrollmentOut),
    heldSeats: z
      .array(heldSeatOut)
      .describe('Seats held but not enrolled yet (they count against capacity), oldest first; not paged or filtered'),
    totalCount: z.number().int(),
    currentPage: z.number().int(),
    itemsPerPage: z.number().int(),
  }),
) {}
class CheckInOutDto extends createZodDto(
  z.object({
    enrollment_id: z.uuid(),
    checked_in_at: z.string().nullable(),
    attendance: z.enum(ATTENDANCE_VALUES),
  }),
) {}
class GuestCountOutDto extends createZodDto(
  z.object({ enrollment_id: z.uuid(), guestCount: z.number().int() }),
) {}

@ApiTags('enrollments')
@Controller('admin')
@Auth()
export class EnrollmentsController {
  constructor(
    private readonly grid: EnrollmentGridQuery,
    private readonly seats: SeatAdminService,
    private readonly exporter: EnrollmentExportService,
  ) {}

  @Get('enrollment/event/:event_id')
  @ApiOperation({ summary: "A page of a session's enrollments: search (name, email), sort, filter[column]" })
  @ApiQuery({ name: 'page', required: false, type: Number })
  @ApiQuery({ name: 'limit', required: false, type: Number, description: 'default 20, at most 100' })
  @ApiQuery({ name: 'search', required: false, type: String })
  @ApiQuery({
    name: 'sortField',
    required: false,
    enum: [...ENROLLMENT_SORT_FIELDS],
  })
  @ApiQuery({ name: 'sortOrder', required: false, enum: ['asc', 'desc'] })
  @ApiQuery({
    name: 'filter',
    required: false,
    style: 'deepObject',
    explode: true,
    type: 'object',
    description: 'filter[first_name|last_name|email|phone|waiverStatus|guestCount|attendance] (attendance: checked_in, not_checked_in, no_show)',
  })
  @ZodResponse({ status: 200, type: EnrollmentPageDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiInvalidQuery()
  async list(
    @Ctx() ctx: RequestContext,
    @Param('event_id', UuidParamPipe) eventId: string,
    @Query() raw: Record<string, unknown>,
  ) {
    const query = parseEnrollmentQuery(raw);
    const { rows, total, endsAt, held } = await this.grid.list(ctx, eventId, query);
    const now = new Date();
    return {
      enrollments: rows.map((row) => mapEnrollmentRow(row, endsAt, now)),
      heldSeats: held,
      totalCount: total,
      currentPage: query.page,
      itemsPerPage: query.limit,
    };
  }

  @Delete('enrollment/:enrollment_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove a student from a session: frees the seat, keeps the order',
    description:
      "With `refund`, the student's order is refunded in the same operation: when the refund is refused the student stays enrolled (the error has `errors.refund`).",
  })
  @ApiBody({ type: RemoveEnrollmentDto, required: false })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiConflictResponse({
    type: ErrorBodyDto,
    description: 'The refund was refused; the student stays enrolled',
  })
  @ApiForbiddenResponse({ type: ErrorBodyDto, description: CREDIT_MESSAGES.keepUseOwnerOnly })
  @ApiInvalidBody()
  async remove(
    @Ctx() ctx: RequestContext,
    @Param('enrollment_id', UuidParamPipe) id: string,
    @Body() raw: unknown,
  ): Promise<void> {
    const parsed = removeEnrollmentBodySchema.safeParse(raw ?? {});
    if (!parsed.success) throw new ZodValidationException(parsed.error);
    const refund = parsed.data.refund;
    // Issue 24: the use that covered the seat comes back unless an owner keeps it.
    if (parsed.data.keep_use && ctx.role === 'staff')
      throw new ApiError(HttpStatus.FORBIDDEN, CREDIT_MESSAGES.keepUseOwnerOnly, { keep_use: CREDIT_MESSAGES.keepUseOwnerOnly });
    await this.seats.remove(
      ctx,
      id,
      refund ? { amountCents: refund.amount, reason: refund.reason, refundTo: refund.refund_to } : undefined,
      { returnUse: !parsed.data.keep_use },
    );
  }

  @Put('enrollment/:enrollment_id/check-in')
  @ApiOperation({
    summary: 'Check the student in to the session (issue 23); checking in again keeps the first time',
  })
  @ZodResponse({ status: 200, type: CheckInOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'The student was removed from the session' })
  async checkIn(@Ctx() ctx: RequestContext, @Param('enrollment_id', UuidParamPipe) id: string) {
    return this.seats.setCheckIn(ctx, id, true);
  }

  @Delete('enrollment/:enrollment_id/check-in')
  @ApiOperation({ summary: "Undo the student's check-in (idempotent)" })
  @ZodResponse({ status: 200, type: CheckInOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'The student was removed from the session' })
  async undoCheckIn(@Ctx() ctx: RequestContext, @Param('enrollment_id', UuidParamPipe) id: string) {
    return this.seats.setCheckIn(ctx, id, false);
  }

  @Put('enrollment/:enrollment_id/guests')
  @ApiOperation({ summary: 'Set the guests that come with a student (they take seats)' })
  @ZodResponse({ status: 200, type: GuestCountOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Not enough seats left' })
  @ApiInvalidBody()
  async guests(
    @Ctx() ctx: RequestContext,
    @Param('enrollment_id', UuidParamPipe) id: string,
    @Body() body: GuestCountDto,
  ) {
    const enrollment = await this.seats.setGuests(ctx, id, body.guestCount);
    return { enrollment_id: enrollment.id, guestCount: enrollment.guestCount };
  }

  @Post('export/enrollment')
  @HttpCode(200)
  @ApiOperation({
    summary: `The session's enrollments (all, or the chosen ones) as ${EXPORT_FILE_NAME}, streamed`,
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'CSV file',
    content: { 'text/csv': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiInvalidBody()
  async export(@Ctx() ctx: RequestContext, @Body() body: ExportDto, @Res() reply: FastifyReply): Promise<void> {
    const csv = await this.exporter.stream(ctx, body.event_id, body.enrollment_ids);
    // Written to the Node response as it comes (its backpressure paces the COPY), not through
    // Fastify's reply: the headers set so far (security, CORS) are on the Node response already.
    reply.hijack();
    const res = reply.raw;
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${EXPORT_FILE_NAME}"`);
    res.setHeader('Cache-Control', 'no-store');
    await pipeline(csv, res).catch(() => res.destroy());
  }
}
