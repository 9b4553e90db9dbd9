import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  ADMIN_APPOINTMENT_HOLD_MINUTES,
  APPOINTMENT_MESSAGES as M,
  appointmentCancelSchema,
  appointmentCheckInOutSchema,
  ATTENDANCE_MESSAGES,
  appointmentCreateSchema,
  appointmentListOutSchema,
  appointmentListQuerySchema,
  appointmentMoveSchema,
  appointmentOutSchema,
  calendarOutSchema,
  calendarQuerySchema,
  MAX_CALENDAR_RANGE_DAYS,
} from '@studio/contracts';
import { ZodResponse, ZodValidationException } from 'nestjs-zod';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { createZodDto } from '../../common/zod-dto';
import { Auth } from '../identity/auth.guard';
import { AppointmentAdminService } from './appointment-admin.service';

class AppointmentCreateDto extends createZodDto(appointmentCreateSchema) {}
class AppointmentMoveDto extends createZodDto(appointmentMoveSchema) {}
class AppointmentCancelDto extends createZodDto(appointmentCancelSchema) {}
class AppointmentOutDto extends createZodDto(appointmentOutSchema) {}
class AppointmentCheckInOutDto extends createZodDto(appointmentCheckInOutSchema) {}
class AppointmentListQueryDto extends createZodDto(appointmentListQuerySchema) {}
class AppointmentListOutDto extends createZodDto(appointmentListOutSchema) {}
class CalendarQueryDto extends createZodDto(calendarQuerySchema) {}
class CalendarOutDto extends createZodDto(calendarOutSchema) {}

/** An appointment course's appointments (issue 22): hold a free time for a student, and the course's list. */
@ApiTags('courses')
@Controller('admin/activities')
@Auth()
export class CourseAppointmentsController {
  constructor(private readonly appointments: AppointmentAdminService) {}

  @Post(':activity_id/appointments')
  @ApiOperation({
    summary: `Hold a free time of an appointment course for a student (${ADMIN_APPOINTMENT_HOLD_MINUTES} minutes), before enroll or invoice with {appointment_id}`,
    description:
      'starts_at must be one of the starts the slots call offers now (hours, notice, window, increments, busy time). The party (the student and guests) must fit the course capacity.',
  })
  @ZodResponse({ status: 201, type: AppointmentOutDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: `The body is invalid (message per field), or "${M.notAppointmentCourse}"` })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: `"${M.courseNotFound}", or "Student not found"` })
  @ApiConflictResponse({ type: ErrorBodyDto, description: `"${M.notOffered}", "${M.taken}", or the party is larger than the course takes` })
  @ApiInvalidBody()
  create(@Ctx() ctx: RequestContext, @Param('activity_id', UuidParamPipe) id: string, @Body() body: AppointmentCreateDto) {
    return this.appointments.create(ctx, id, body);
  }

  @Get(':activity_id/appointments')
  @ApiOperation({ summary: "The course's appointments, upcoming first: held and booked (cancelled ones when asked)" })
  @ZodResponse({ status: 200, type: AppointmentListOutDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: `A query parameter is invalid (message per field), or "${M.notAppointmentCourse}"` })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.courseNotFound })
  list(@Ctx() ctx: RequestContext, @Param('activity_id', UuidParamPipe) id: string, @Query() query: AppointmentListQueryDto) {
    return this.appointments.list(ctx, id, query);
  }
}

/** One appointment (issue 22): read, move to another free time, cancel (Remove student), check in (issue 23). */
@ApiTags('courses')
@Controller('admin/appointments')
@Auth()
export class AppointmentsController {
  constructor(private readonly appointments: AppointmentAdminService) {}

  @Get(':appointment_id')
  @ApiOperation({ summary: 'One appointment of the organization' })
  @ZodResponse({ status: 200, type: AppointmentOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  get(@Ctx() ctx: RequestContext, @Param('appointment_id', UuidParamPipe) id: string) {
    return this.appointments.get(ctx, id);
  }

  @Post(':appointment_id/move')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Move an appointment to another free start of the same course (same duration); the student is mailed the new time unless notify is false',
  })
  @ZodResponse({ status: 200, type: AppointmentOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: `"${M.cancelled}", "${M.notOffered}", or "${M.taken}"` })
  @ApiInvalidBody()
  move(@Ctx() ctx: RequestContext, @Param('appointment_id', UuidParamPipe) id: string, @Body() body: AppointmentMoveDto) {
    return this.appointments.move(ctx, id, body);
  }

  @Put(':appointment_id/check-in')
  @ApiOperation({ summary: 'Check the student in to a booked appointment (issue 23); checking in again keeps the first time' })
  @ZodResponse({ status: 200, type: AppointmentCheckInOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: ATTENDANCE_MESSAGES.appointmentNotBooked })
  checkIn(@Ctx() ctx: RequestContext, @Param('appointment_id', UuidParamPipe) id: string) {
    return this.appointments.setCheckIn(ctx, id, true);
  }

  @Delete(':appointment_id/check-in')
  @ApiOperation({ summary: "Undo the appointment's check-in (idempotent)" })
  @ZodResponse({ status: 200, type: AppointmentCheckInOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: ATTENDANCE_MESSAGES.appointmentNotBooked })
  undoCheckIn(@Ctx() ctx: RequestContext, @Param('appointment_id', UuidParamPipe) id: string) {
    return this.appointments.setCheckIn(ctx, id, false);
  }

  @Delete(':appointment_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove student on an appointment: cancels it (the time is free at once); the student is mailed unless notify is false',
    description:
      "With `refund`, the student's order is refunded in the same operation: when the refund is refused the appointment stays (the error has `errors.refund`).",
  })
  @ApiBody({ type: AppointmentCancelDto, required: false })
  @ApiNoContentResponse({ description: 'Cancelled' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.notFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: `"${M.cancelled}", or the refund was refused (the appointment stays)` })
  @ApiBadGatewayResponse({ type: ErrorBodyDto, description: 'The payment provider did not answer the refund; the appointment stays until it does' })
  @ApiForbiddenResponse({ type: ErrorBodyDto, description: 'keep_use: only an owner keeps the credit used' })
  @ApiInvalidBody()
  async cancel(@Ctx() ctx: RequestContext, @Param('appointment_id', UuidParamPipe) id: string, @Body() raw: unknown): Promise<void> {
    const parsed = appointmentCancelSchema.safeParse(raw ?? {});
    if (!parsed.success) throw new ZodValidationException(parsed.error);
    await this.appointments.cancel(ctx, id, parsed.data);
  }
}

/** The calendar page (issue 22): sessions and appointments together. */
@ApiTags('courses')
@Controller('admin/calendar')
@Auth()
export class CalendarController {
  constructor(private readonly appointments: AppointmentAdminService) {}

  @Get()
  @ApiOperation({
    summary: `Sessions (each day) and appointments (not cancelled) overlapping [from, to), at most ${MAX_CALENDAR_RANGE_DAYS} days, by instructor or location, ordered by start`,
  })
  @ZodResponse({ status: 200, type: CalendarOutDto })
  @ApiInvalidQuery()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Instructor not found, or Location not found' })
  calendar(@Ctx() ctx: RequestContext, @Query() query: CalendarQueryDto) {
    return this.appointments.calendar(ctx, query);
  }
}
