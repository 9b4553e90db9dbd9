import { EntityManager } from '@mikro-orm/postgresql';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { createZodDto } from '../common/zod-dto';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { JOB_QUEUE, JobQueue } from '../queue/job-queue';

const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: z.enum(['up', 'down']),
    queue: z.enum(['up', 'down']),
    queue_mode: z.enum(['bullmq', 'in-process']),
  })
;
class HealthDto extends createZodDto(healthSchema) {}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly em: EntityManager,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Database and queue status; 503 when either is down', security: [] })
  @ZodResponse({ status: 200, type: HealthDto })
  async check(@Res({ passthrough: true }) response: FastifyReply) {
    const database = await this.em
      .getConnection()
      .execute('select 1')
      .then(() => 'up' as const)
      .catch(() => 'down' as const);
    const queue = (await this.queue.ping()) ? ('up' as const) : ('down' as const);
    const status = database === 'up' && queue === 'up' ? ('ok' as const) : ('degraded' as const);
    if (status !== 'ok') response.status(503);
    return { status, database, queue, queue_mode: this.queue.mode };
  }
}
