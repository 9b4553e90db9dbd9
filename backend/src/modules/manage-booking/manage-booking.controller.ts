import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { MANAGE_MESSAGES as M, STORE_MESSAGES, publicCancelSchema } from '@studio/contracts';
import { ZodResponse, ZodValidationException } from 'nestjs-zod';
import { ApiInvalidBody } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import type { Organization } from '../organizations/organization.entity';
import { PublicRateLimitGuard } from '../storefront/public-rate-limit.guard';
import { CurrentStore, StoreGuard } from '../storefront/store.guard';
import { SLUG_PARAM, STOREFRONT_TAG } from '../storefront/storefront.controller';
import {
  AdminCancelDto,
  AdminRescheduleDto,
  BookingTermsDto,
  MoveStudentsDto,
  MoveStudentsResultDto,
  PublicBookingDto,
  PublicCancelDto,
  RescheduleDto,
} from './manage-booking.dto';
import { ManageBookingService } from './manage-booking.service';

const TOKEN_PARAM = ApiParam({
  name: 'token',
  description: "The booking's manage token, from the link in its confirmation mail (the booking's kind and id, signed)",
});
const NOT_FOUND = ApiNotFoundResponse({
  type: ErrorBodyDto,
  description: `${STORE_MESSAGES.storeNotFound}, or ${M.notFound} (a wrong, tampered or other store's token)`,
});

/**
 * The manage link (issue 23): the booking's page for whoever holds its signed token, and the
 * student's cancel and reschedule by the course's policies. Rate-limited like the whole Storefront API.
 */
@ApiTags(STOREFRONT_TAG)
@Controller('public/:slug/bookings/:token')
@SLUG_PARAM
@UseGuards(PublicRateLimitGuard, StoreGuard)
@ApiTooManyRequestsResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.tooManyRequests })
export class PublicBookingController {
  constructor(private readonly manage: ManageBookingService) {}

  @Get()
  @TOKEN_PARAM
  @ApiOperation({
    summary: 'A booking for the holder of its manage link: the course, time, place, party, what was paid, and what the policies allow now',
  })
  @NOT_FOUND
  @ZodResponse({ status: 200, type: PublicBookingDto })
  view(@CurrentStore() store: Organization, @Param('token') token: string) {
    return this.manage.view(store, token);
  }

  @Post('cancel')
  @HttpCode(200)
  @TOKEN_PARAM
  @ApiOperation({
    summary: "Cancels the booking by the course's cancellation policy: the policy's share of what was paid goes back at once to the payment, recorded as Cancelled by the student",
    description:
      "Idempotent: a second call (or a concurrent one) refunds nothing more and answers the cancelled booking. The seats (or the appointment time) are freed. With refund_to 'store_credit' the money goes to the student's store credit at once. A membership booking or pack credit that covered it is given back inside the policy's full-refund window, forfeited after it (`use` says which).",
  })
  @ApiBody({ type: PublicCancelDto, required: false })
  @ApiInvalidBody()
  @NOT_FOUND
  @ApiConflictResponse({ type: ErrorBodyDto, description: `${M.started}; ${M.cancelNotAllowed}; or the refund was refused (the booking stays)` })
  @ApiBadGatewayResponse({ type: ErrorBodyDto, description: 'The payment provider did not answer; the refund is asked again shortly' })
  @ZodResponse({ status: 200, type: PublicBookingDto })
  cancel(@CurrentStore() store: Organization, @Param('token') token: string, @Body() raw: unknown) {
    const parsed = publicCancelSchema.safeParse(raw ?? {});
    if (!parsed.success) throw new ZodValidationException(parsed.error);
    return this.manage.cancelByStudent(store, token, parsed.data);
  }

  @Post('reschedule')
  @HttpCode(200)
  @TOKEN_PARAM
  @ApiOperation({
    summary: "Moves the booking to another session of the same course with seats (event_id), or an appointment to another free time (starts_at), free within the rescheduling policy",
    description: 'The payment moves with the booking. Moving to where it already is answers the booking unchanged.',
  })
  @ApiInvalidBody()
  @NOT_FOUND
  @ApiConflictResponse({ type: ErrorBodyDto, description: "Past the rescheduling policy (with the policy's words), started, cancelled, no room, or not offered" })
  @ZodResponse({ status: 200, type: PublicBookingDto })
  reschedule(@CurrentStore() store: Organization, @Param('token') token: string, @Body() body: RescheduleDto) {
    return this.manage.rescheduleByStudent(store, token, body);
  }
}

const OWNER_ONLY = ApiForbiddenResponse({ type: ErrorBodyDto, description: M.ownerOnly });

/** Cancel booking and Modify booking of a session's enrollment, and Move students (issue 23). */
@ApiTags('enrollments')
@Controller('admin')
@Auth()
export class AdminBookingController {
  constructor(private readonly manage: ManageBookingService) {}

  @Get('enrollment/:enrollment_id/booking')
  @ApiOperation({ summary: "What Cancel booking and Modify booking show: the policies' figures now and the sessions it may move to" })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ZodResponse({ status: 200, type: BookingTermsDto })
  enrollmentTerms(@Ctx() ctx: RequestContext, @Param('enrollment_id', UuidParamPipe) id: string) {
    return this.manage.terms(ctx, 'enrollment', id);
  }

  @Post('enrollment/:enrollment_id/booking/cancel')
  @HttpCode(204)
  @ApiOperation({
    summary: "Cancel booking: the cancellation policy's refund, or (an owner) any refund_amount in cents from 0 to what is left",
  })
  @ApiInvalidBody()
  @ApiNoContentResponse({ description: 'Cancelled' })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'A refund above what is left to refund' })
  @OWNER_ONLY
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: `${M.cancelled}, or the refund was refused (errors.refund)` })
  async enrollmentCancel(@Ctx() ctx: RequestContext, @Param('enrollment_id', UuidParamPipe) id: string, @Body() body: AdminCancelDto) {
    await this.manage.adminCancel(ctx, 'enrollment', id, body);
  }

  @Post('enrollment/:enrollment_id/booking/reschedule')
  @HttpCode(204)
  @ApiOperation({ summary: 'Modify booking: to another session of the course with room; past the rescheduling policy only with override (owners)' })
  @ApiInvalidBody()
  @ApiNoContentResponse({ description: 'Moved' })
  @OWNER_ONLY
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Past the policy without override, cancelled, no room, or another course' })
  async enrollmentReschedule(@Ctx() ctx: RequestContext, @Param('enrollment_id', UuidParamPipe) id: string, @Body() body: AdminRescheduleDto) {
    await this.manage.adminReschedule(ctx, 'enrollment', id, body);
  }

  @Get('appointments/:appointment_id/booking')
  @ApiOperation({ summary: "What Cancel booking and Modify booking show for an appointment: the policies' figures now" })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ZodResponse({ status: 200, type: BookingTermsDto })
  appointmentTerms(@Ctx() ctx: RequestContext, @Param('appointment_id', UuidParamPipe) id: string) {
    return this.manage.terms(ctx, 'appointment', id);
  }

  @Post('appointments/:appointment_id/booking/cancel')
  @HttpCode(204)
  @ApiOperation({ summary: "Cancel booking of an appointment: the policy's refund, or (an owner) any refund_amount" })
  @ApiInvalidBody()
  @ApiNoContentResponse({ description: 'Cancelled' })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'A refund above what is left to refund' })
  @OWNER_ONLY
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: `${M.cancelled}, or the refund was refused (errors.refund)` })
  async appointmentCancel(@Ctx() ctx: RequestContext, @Param('appointment_id', UuidParamPipe) id: string, @Body() body: AdminCancelDto) {
    await this.manage.adminCancel(ctx, 'appointment', id, body);
  }

  @Post('appointments/:appointment_id/booking/reschedule')
  @HttpCode(204)
  @ApiOperation({ summary: 'Modify booking of an appointment: another free time (starts_at); past the policy only with override (owners)' })
  @ApiInvalidBody()
  @ApiNoContentResponse({ description: 'Moved' })
  @OWNER_ONLY
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Past the policy without override, cancelled, or the time not offered' })
  async appointmentReschedule(@Ctx() ctx: RequestContext, @Param('appointment_id', UuidParamPipe) id: string, @Body() body: AdminRescheduleDto) {
    await this.manage.adminReschedule(ctx, 'appointment', id, body);
  }

  @Post('events/:event_id/move-students')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Move students: enrollment_ids (or, absent, every student) to another session of the same course with room, all or nothing',
  })
  @ApiInvalidBody()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Event not found, or Enrollment not found' })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Not enough room (nobody moved), another course, a past or cancelled session, or a student already there' })
  @ZodResponse({ status: 200, type: MoveStudentsResultDto })
  moveStudents(@Ctx() ctx: RequestContext, @Param('event_id', UuidParamPipe) eventId: string, @Body() body: MoveStudentsDto) {
    return this.manage.moveStudents(ctx, eventId, body);
  }
}
