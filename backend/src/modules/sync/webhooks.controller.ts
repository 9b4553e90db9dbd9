import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { ApiInvalidBody } from '../../common/api-errors';
import { createZodDto } from '../../common/zod-dto';
import { EventbriteOrdersService } from './drivers/eventbrite/eventbrite-orders.service';

/** What Eventbrite posts: the action, the user whose webhook it is, and the API URL of the object. */
const eventbriteWebhookSchema = z.object({
  config: z.object({
    action: z.string().max(100),
    user_id: z.string().max(64).regex(/^[0-9A-Za-z_-]+$/).optional(),
    webhook_id: z.string().max(64).optional(),
    endpoint_url: z.string().max(2000).optional(),
  }),
  api_url: z.string().max(2000),
});
class EventbriteWebhookDto extends createZodDto(eventbriteWebhookSchema) {}
class EventbriteWebhookReceivedDto extends createZodDto(
  z.object({
    received: z.literal(true),
    queued: z.number().int().describe('orders queued for import (one per organization connected to that Eventbrite user)'),
  }),
) {}

/** The order id in an Eventbrite API URL (`…/v3/orders/1234567890/`). */
const ORDER_URL = /\/orders\/(\d{1,30})\/?(?:\?.*)?$/;

/**
 * Eventbrite's webhook (no admin session). Nothing in the body is trusted but ids: the order is read
 * back from Eventbrite's API with the connected organization's token, on the API host configured
 * here (never the host the body names), by a queue job.
 */
@ApiTags('webhooks')
@Controller('webhooks')
export class SyncWebhooksController {
  constructor(private readonly orders: EventbriteOrdersService) {}

  @Post('eventbrite')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Eventbrite webhook deliveries (order.placed, order.updated): the order named by api_url is read back from Eventbrite with the connected organization's token and recorded once as an enrollment with an order of source eventbrite",
    security: [],
  })
  @ZodResponse({ status: 200, type: EventbriteWebhookReceivedDto })
  @ApiInvalidBody()
  async eventbrite(@Body() body: EventbriteWebhookDto) {
    const match = ORDER_URL.exec(body.api_url);
    // Eventbrite's "test" ping and actions on other objects are acknowledged and ignored.
    if (!match || !body.config.action.startsWith('order.') || !body.config.user_id) return { received: true as const, queued: 0 };
    const organizations = await this.orders.organizationsOfUser(body.config.user_id);
    for (const organizationId of organizations) await this.orders.enqueueOrder(organizationId, match[1]);
    return { received: true as const, queued: organizations.length };
  }
}
