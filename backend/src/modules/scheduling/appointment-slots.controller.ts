import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { APPOINTMENT_MESSAGES, MAX_SLOTS_RANGE_DAYS } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { SlotsOutDto, SlotsQueryDto } from './appointment-slots.dto';
import { AppointmentSlotsService } from './appointment-slots.service';

/** The admin's slots of an appointment course (issue 22): the same answer as the store's, for any course of the organization. */
@ApiTags('courses')
@Controller('admin/activities')
@Auth()
export class AppointmentSlotsController {
  constructor(private readonly slots: AppointmentSlotsService) {}

  @Get(':activity_id/slots')
  @ApiOperation({
    summary: "The free start times of an appointment course in [from, to), grouped by day in tz (default the location's zone)",
    description: `from and to are ISO 8601 instants at most ${MAX_SLOTS_RANGE_DAYS} days apart. Starts follow the course's hours (else its instructor's), its increments, minimum notice and booking window, and leave the duration plus buffers free of the instructor's appointments (any course) and sessions.`,
  })
  @ZodResponse({ status: 200, type: SlotsOutDto })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: `A query parameter is invalid (message per field), or "${APPOINTMENT_MESSAGES.notAppointmentCourse}"`,
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: APPOINTMENT_MESSAGES.courseNotFound })
  list(@Ctx() ctx: RequestContext, @Param('activity_id', UuidParamPipe) id: string, @Query() query: SlotsQueryDto) {
    return this.slots.slots(ctx.organizationId, id, query, { published: false });
  }
}
