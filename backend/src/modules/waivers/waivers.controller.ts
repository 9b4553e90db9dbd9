import { Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { WAIVER_MESSAGES as M, SUBMISSION_STATUSES, waiverSummarySchema } from '@studio/contracts';
import type { FastifyRequest } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { ApiError, notFound } from '../../common/api-error';
import { ApiUnexpectedBody } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { createZodDto } from '../../common/zod-dto';
import { Auth } from '../identity/auth.guard';
import { EsignPort, EsignWebhookRefused } from './esign.port';
import { WaiverCompletionService } from './waiver-completion.service';
import { WaiverReadModels } from './waiver-read-models';
import { WaiverRemindersService } from './waiver-reminders.service';

class ReminderDto extends createZodDto(
  z.object({
    submission_id: z.uuid(),
    status: z.enum(SUBMISSION_STATUSES),
    last_reminded_at: z.string().describe('When this reminder was sent'),
    message: z.literal(M.reminderSent),
  }),
) {}
class WaiverSummaryDto extends createZodDto(z.object({ templates: z.array(waiverSummarySchema) })) {}
class WebhookAnswerDto extends createZodDto(z.object({ received: z.literal(true) })) {}

@ApiTags('waivers')
@Controller('admin/submission')
@Auth()
export class SubmissionsController {
  constructor(
    private readonly reads: WaiverReadModels,
    private readonly reminders: WaiverRemindersService,
  ) {}

  @Get('summary')
  @ApiOperation({
    summary:
      'The Waivers page: each waiver template (by name, at most 1000) with its pending, completed and expired submissions counted',
  })
  @ZodResponse({ status: 200, type: WaiverSummaryDto })
  async summary(@Ctx() ctx: RequestContext) {
    return { templates: await this.reads.summary(ctx) };
  }

  @Get('remind/:submission_id')
  @ApiOperation({
    summary:
      'Reminds the student to sign (a queue job): refused once signed or expired, and 404 once withdrawn (the student was removed); at most once an hour per submission',
  })
  @ZodResponse({ status: 200, type: ReminderDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.submissionNotFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: `${M.alreadySigned} / ${M.expired}` })
  @ApiTooManyRequestsResponse({ type: ErrorBodyDto, description: M.reminderTooSoon })
  async remind(@Ctx() ctx: RequestContext, @Param('submission_id', UuidParamPipe) id: string) {
    const submission = await this.reminders.remind(ctx, id);
    return {
      submission_id: submission.id,
      status: submission.status,
      last_reminded_at: (submission.lastRemindedAt ?? new Date()).toISOString(),
      message: M.reminderSent,
    };
  }
}

/**
 * DocuSeal's webhook (form.completed, submission.completed, submission.expired), public but checked
 * by the secret DocuSeal sends in the X-Docuseal-Secret header (DOCUSEAL_WEBHOOK_SECRET). A repeated
 * delivery changes nothing.
 */
@ApiTags('waivers')
@Controller('webhooks/docuseal')
export class DocusealWebhookController {
  constructor(
    private readonly esign: EsignPort,
    private readonly completion: WaiverCompletionService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "DocuSeal's webhook: marks a submission completed (or expired); the X-Docuseal-Secret header must match",
    security: [],
  })
  @ZodResponse({ status: 200, type: WebhookAnswerDto })
  @ApiBody({
    description: 'A DocuSeal webhook event ({event_type, timestamp, data}), exactly as DocuSeal sends it',
    schema: { type: 'object', additionalProperties: true },
  })
  @ApiUnauthorizedResponse({ type: ErrorBodyDto, description: M.webhookSecret })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.webhookNotConfigured })
  @ApiUnexpectedBody()
  async receive(@Req() req: FastifyRequest) {
    if (this.esign.provider !== 'docuseal') throw notFound(M.webhookNotConfigured);
    let event;
    try {
      event = this.esign.parseWebhook(req.headers, req.body);
    } catch (error) {
      if (error instanceof EsignWebhookRefused) throw new ApiError(401, M.webhookSecret);
      throw error;
    }
    await this.completion.applyWebhook(event);
    return { received: true as const };
  }
}
