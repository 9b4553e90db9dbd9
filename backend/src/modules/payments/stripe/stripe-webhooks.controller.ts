import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiHeader,
  ApiOperation,
  ApiNotFoundResponse,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { createZodDto } from '../../../common/zod-dto';
import { ErrorBodyDto } from '../../../common/error-body.dto';
import { StripeWebhooksService } from './stripe-webhooks.service';

class WebhookReceivedDto extends createZodDto(
  z.object({
    received: z.literal(true),
    duplicate: z.boolean().describe('the event id was already recorded: nothing more is done'),
  }),
) {}

/** Stripe calls this (no admin session): the Stripe-Signature header over the raw body is the proof. */
@ApiTags('webhooks')
@Controller('webhooks')
export class StripeWebhooksController {
  constructor(private readonly webhooks: StripeWebhooksService) {}

  @Post('stripe')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Stripe events: signature checked on the raw body (300 s tolerance), stored once per event id, handled by a queue job (no session token: the signature is the authentication)',
    security: [],
  })
  @ApiHeader({
    name: 'Stripe-Signature',
    required: true,
    description: 't=<unix seconds>,v1=<HMAC-SHA256 of "t.body" with the endpoint secret>',
  })
  @ApiBody({
    description: 'A Stripe event object, exactly as Stripe sends it',
    schema: { type: 'object', additionalProperties: true },
  })
  @ZodResponse({ status: 200, type: WebhookReceivedDto })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: 'No signature, a bad or stale signature, or not an event: nothing is stored',
  })
  @ApiPayloadTooLargeResponse({ type: ErrorBodyDto, description: 'The body is over 1 MB' })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: 'Stripe webhooks are not configured here (STRIPE_WEBHOOK_SECRET is not set)',
  })
  receive(@Req() req: FastifyRequest, @Headers('stripe-signature') signature?: string) {
    return this.webhooks.receive(req.body, signature);
  }
}
