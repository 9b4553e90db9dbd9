import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { multilineText } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { Ctx, RequestContext } from '../../common/request-context';
import { Auth } from '../identity/auth.guard';
import { ChatAlertsService } from './chat-alerts.service';
import { ApiInvalidBody } from '../../common/api-errors';

const alertBody = z
  .object({ message: multilineText({ error: 'A message is required.' }).trim().min(1, 'A message is required.').max(3000) })
  .strict();
class ChatAlertDto extends createZodDto(alertBody) {}
class ChatAlertQueuedDto extends createZodDto(z.object({ queued: z.boolean().describe('false when no webhook is configured') })) {}

@ApiTags('notifications')
@Controller()
@Auth()
export class ChatAlertsController {
  constructor(private readonly alerts: ChatAlertsService) {}

  @Post('slack-alert')
  @HttpCode(202)
  @ApiOperation({ summary: 'Post an alert to the chat service' })
  @ZodResponse({ status: 202, type: ChatAlertQueuedDto })
  @ApiInvalidBody()
  async general(@Ctx() ctx: RequestContext, @Body() body: ChatAlertDto) {
    return { queued: await this.alerts.alert({ channel: 'general', message: body.message, organizationId: ctx.organizationId }) };
  }

  @Post('slack-alert-new-course')
  @HttpCode(202)
  @ApiOperation({ summary: 'Announce a new course in the chat service' })
  @ZodResponse({ status: 202, type: ChatAlertQueuedDto })
  @ApiInvalidBody()
  async newCourse(@Ctx() ctx: RequestContext, @Body() body: ChatAlertDto) {
    return { queued: await this.alerts.alert({ channel: 'new-course', message: body.message, organizationId: ctx.organizationId }) };
  }
}
