import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { ApiInvalidBody } from '../../common/api-errors';
import { createZodDto } from '../../common/zod-dto';
import { EVENTBRITE_WEBHOOK_ACTIONS } from './drivers/eventbrite/eventbrite.client';
import { EventbriteOrdersService } from './drivers/eventbrite/eventbrite-orders.service';
import { EventbriteWebhooksService } from './drivers/eventbrite/eventbrite-webhooks.service';

/** What Eventbrite posts: the action, the webhook (and its user), and the API URL of the object. */
const eventbriteWebhookSchema = z.object({
  config: z.object({
    action: z.string().max(100),
    user_id: z.string().max(64).regex(/^[0-9A-Za-z_-]+$/).optional(),
    webhook_id: z.string().max(64).regex(/^[0-9A-Za-z_-]+$/).optional(),
    endpoint_url: z.string().max(2000).optional(),
  }),
  api_url: z.string().max(2000),
});
class EventbriteWebhookDto extends createZodDto(eventbriteWebhookSchema) {}
class EventbriteWebhookReceivedDto extends createZodDto(
  z.object({
    received: z.literal(true),
    queued: z.number().int().describe('orders queued for import (one when the delivery names a webhook the studio registered, else 0)'),
  }),
) {}

/** The order id in an Eventbrite API URL (`…/v3/orders/1234567890/`). */
const ORDER_URL = /\/orders\/(\d{1,30})\/?(?:\?.*)?$/;

/**
 * Eventbrite's webhook (no admin session). A delivery counts only when its `config.webhook_id` is
 * the id of a webhook the studio registered for a connection (EventbriteWebhooksService keeps it in
 * the connection's metadata); anything else is acknowledged and ignored. Nothing in the body is
 * trusted but ids: the order is read back from Eventbrite's API with that connection's token, on
 * the API host configured here (never the host the body names), by a queue job.
 */
@ApiTags('webhooks')
@Controller('webhooks')
export class SyncWebhooksController {
  constructor(
    private readonly orders: EventbriteOrdersService,
    private readonly webhooks: EventbriteWebhooksService,
  ) {}

  @Post('eventbrite')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Eventbrite webhook deliveries (order.placed, order.refunded, order.updated) of a webhook the studio registered: the order named by api_url is read back from Eventbrite with the connected organization's token, recorded once as an enrollment with an order of source eventbrite, and its seats released when Eventbrite refunded or cancelled it",
    security: [],
  })
  @ZodResponse({ status: 200, type: EventbriteWebhookReceivedDto })
  @ApiInvalidBody()
  async eventbrite(@Body() body: EventbriteWebhookDto) {
    const match = ORDER_URL.exec(body.api_url);
    const { action, webhook_id: webhookId } = body.config;
    // Eventbrite's "test" ping, actions on other objects and unknown webhooks are acknowledged and ignored.
    if (!match || !ORDER_ACTIONS.has(action) || !webhookId) return { received: true as const, queued: 0 };
    const organizations = await this.webhooks.organizationsOfWebhook(webhookId);
    for (const organizationId of organizations) await this.orders.enqueueOrder(organizationId, match[1], action);
    return { received: true as const, queued: organizations.length };
  }
}

const ORDER_ACTIONS = new Set<string>(EVENTBRITE_WEBHOOK_ACTIONS);
