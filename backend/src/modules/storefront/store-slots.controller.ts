import { Controller, Get, Header, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { APPOINTMENT_MESSAGES, MAX_SLOTS_RANGE_DAYS, STORE_MESSAGES } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { SlotsOutDto, SlotsQueryDto } from '../scheduling/appointment-slots.dto';
import { AppointmentSlotsService } from '../scheduling/appointment-slots.service';
import type { Organization } from '../organizations/organization.entity';
import { PublicRateLimitGuard } from './public-rate-limit.guard';
import { CurrentStore, StoreGuard } from './store.guard';
import { STOREFRONT_TAG } from './storefront.controller';

/**
 * The store's slots of an appointment course (issue 22, Storefront API): readable by anyone, any
 * origin, rate-limited per address like the other public calls. Only free start times, never whose
 * appointment took the others.
 */
@ApiTags(STOREFRONT_TAG)
@Controller('public/:slug')
@UseGuards(PublicRateLimitGuard, StoreGuard)
@ApiTooManyRequestsResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.tooManyRequests })
export class StoreSlotsController {
  constructor(private readonly slots: AppointmentSlotsService) {}

  @Get('activities/:activity_id/slots')
  @Header('Access-Control-Allow-Origin', '*')
  @ApiParam({
    name: 'slug',
    description: "The store's address (Settings → Organization), as in PUBLIC_APP_URL/s/{slug}",
    example: 'demo-studio',
  })
  @ApiOperation({
    summary: "The free start times of a published appointment course in [from, to), grouped by day in tz (default the location's zone)",
    description: `from and to are ISO 8601 instants at most ${MAX_SLOTS_RANGE_DAYS} days apart. zone names the location's zone, display_zone the zone the days are counted in.`,
  })
  @ZodResponse({ status: 200, type: SlotsOutDto })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: `A query parameter is invalid (message per field), or "${APPOINTMENT_MESSAGES.notAppointmentCourse}"`,
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: `${STORE_MESSAGES.storeNotFound}, or ${STORE_MESSAGES.courseNotFound}` })
  list(@CurrentStore() store: Organization, @Param('activity_id', UuidParamPipe) id: string, @Query() query: SlotsQueryDto) {
    return this.slots.slots(store.id, id, query, { published: true });
  }
}
