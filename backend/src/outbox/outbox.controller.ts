import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { notFound } from '../common/api-error';
import { ApiUnexpectedBody } from '../common/api-errors';
import { ErrorBodyDto } from '../common/error-body.dto';
import { UuidParamPipe } from '../common/uuid-param.pipe';
import { createZodDto } from '../common/zod-dto';
import { Auth } from '../modules/identity/auth.guard';
import { OutboxService } from './outbox.service';

const NOT_FOUND = 'No failed outbox row with this id';

class OutboxStateDto extends createZodDto(
  z.object({
    subscribers: z
      .array(
        z.object({
          subscriber: z.string().describe('the module handler rows are delivered to (loyalty, waivers, orders.payment-links, …)'),
          waiting: z.number().int().describe('rows committed and not handed to the queue yet'),
          in_flight: z.number().int().describe('rows handed to the queue and not done yet (running or retried)'),
          failed: z.number().int().describe('rows whose attempts are spent: their effect did not happen'),
          oldest_open_at: z.string().nullable().describe('when the oldest row not done nor failed was written'),
        }),
      )
      .describe('per subscriber, what is not done yet; a subscriber with nothing open is left out'),
    failed: z
      .array(
        z.object({
          id: z.string(),
          type: z.string().describe('the announcement (order.paid, enrollment.created, …)'),
          subscriber: z.string(),
          organization_id: z.string().nullable(),
          attempts: z.number().int(),
          last_error: z.string().nullable(),
          created_at: z.string(),
          failed_at: z.string(),
        }),
      )
      .describe('the 50 most recent rows failed for good'),
  }),
) {}

/**
 * What the outbox has not carried out yet, for the people who run the platform: per subscriber what
 * waits, runs and failed, the failed rows with their errors, and Retry. The BullMQ dashboard shows
 * the same jobs (queue `outbox`) once they are queued; this also covers the in-process queue.
 */
@ApiTags('queues')
@Controller('admin/outbox')
@Auth('super_admin')
export class OutboxController {
  constructor(private readonly outbox: OutboxService) {}

  @Get()
  @ApiOperation({ summary: 'Super admins: what the outbox has not carried out yet, and what failed for good' })
  @ZodResponse({ status: 200, type: OutboxStateDto })
  async state() {
    return { subscribers: await this.outbox.summary(), failed: await this.outbox.failedRows(50) };
  }

  @Post(':id/retry')
  @HttpCode(204)
  @ApiOperation({ summary: 'Super admins: hands a failed outbox row to its handler again (its attempts start over)' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiNoContentResponse({ description: 'The row waits for the relay again' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: NOT_FOUND })
  @ApiUnexpectedBody()
  async retry(@Param('id', UuidParamPipe) id: string): Promise<void> {
    if (!(await this.outbox.retry(id))) throw notFound(NOT_FOUND);
  }
}
