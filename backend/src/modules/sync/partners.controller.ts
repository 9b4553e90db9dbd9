import { Controller, Get, HttpStatus, Query } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiConflictResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SYNC_MESSAGES as M, ticketingEventsQuerySchema, ticketingEventsSchema } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ApiError } from '../../common/api-error';
import { ApiInvalidQuery } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { createZodDto } from '../../common/zod-dto';
import { Auth } from '../identity/auth.guard';
import { EventbriteDriver } from './drivers/eventbrite/eventbrite.driver';
import { SyncConnectionsService } from './sync-connections.service';
import { SyncSettingsService } from './sync-settings.service';

class TicketingEventsQueryDto extends createZodDto(ticketingEventsQuerySchema) {}
class TicketingEventsDto extends createZodDto(ticketingEventsSchema) {}

/** What Edit Course's ticketing picker reads from the connected provider (spec 001 §7). */
@ApiTags('sync')
@Controller('admin/partners')
@Auth()
export class PartnersController {
  constructor(
    private readonly connections: SyncConnectionsService,
    private readonly settings: SyncSettingsService,
    private readonly eventbrite: EventbriteDriver,
  ) {}

  @Get('eventbrite/events')
  @ApiOperation({
    summary:
      "The events of the Eventbrite organization chosen in the Eventbrite settings, newest first, one page at a time (pass the answer's continuation back for the next)",
  })
  @ZodResponse({ status: 200, type: TicketingEventsDto })
  @ApiInvalidQuery()
  @ApiConflictResponse({
    type: ErrorBodyDto,
    description: `${M.notConnected('eventbrite')} / ${M.organizationRequired}`,
  })
  @ApiBadGatewayResponse({ type: ErrorBodyDto, description: M.providerNotAnswering('eventbrite') })
  async events(@Ctx() ctx: RequestContext, @Query() query: TicketingEventsQueryDto) {
    const auth = await this.connections.auth(ctx, 'eventbrite');
    const { organization_id } = await this.settings.config(ctx, 'eventbrite');
    if (!organization_id) throw new ApiError(HttpStatus.CONFLICT, M.organizationRequired);
    try {
      const page = await this.eventbrite.client(auth.accessToken).events(organization_id, query.continuation || undefined);
      return {
        events: page.events.map((e) => ({
          id: String(e.id),
          name: e.name?.text ?? '',
          start: e.start?.utc instanceof Date && !isNaN(e.start.utc.getTime()) ? e.start.utc.toISOString() : null,
          status: e.status,
        })),
        continuation: page.pagination?.hasMoreItems ? (page.pagination.continuation ?? null) : null,
      };
    } catch {
      // Refused, rate-limited or unreachable: the picker says so and the admin tries again.
      throw new ApiError(HttpStatus.BAD_GATEWAY, M.providerNotAnswering('eventbrite'));
    }
  }
}
