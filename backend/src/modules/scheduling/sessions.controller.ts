import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { queryCount } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { SessionsService } from './sessions.service';
import { ApiInvalidQuery } from '../../common/api-errors';

const sessionsQuery = z
  .object({
    include_past: z
      .enum(['true', 'false'])
      .optional()
      .default('false')
      .transform((v) => v === 'true'),
    limit: queryCount({ min: 1, max: 10000 }).optional().default(10000),
    /** Sessions the studio cancelled (issue 23), badged Cancelled: the course page lists them, the share drawer does not. */
    include_cancelled: z
      .enum(['true', 'false'])
      .optional()
      .default('false')
      .transform((v) => v === 'true'),
  })
  .strict();
class SessionsQueryDto extends createZodDto(sessionsQuery) {}

const session = z.object({
  event_id: z.uuid(),
  name: z.string(),
  start: z.string(),
  end: z.string(),
  internal_short_description: z.string().nullable(),
  capacity: z.number().int(),
  enrolled: z.number().int(),
  price: z.number().int().describe('cents'),
  badge: z.enum(['Cancelled', 'Finished', 'At capacity', 'Open']),
  Location: z.object({ address: z.string(), timezone: z.object({ timeZoneId: z.string() }) }),
  schedule: z.array(z.object({ start_date: z.string(), start_time: z.string(), duration: z.number().int() })),
});
class SessionListDto extends createZodDto(z.object({ sessions: z.array(session) })) {}

@ApiTags('courses')
@Controller('admin/activities')
@Auth()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get(':activity_id/sessions')
  @ApiOperation({
    summary: "A course's sessions, earliest first; past ones only with include_past=true, cancelled ones only with include_cancelled=true",
  })
  @ZodResponse({ status: 200, type: SessionListDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  @ApiInvalidQuery()
  async list(
    @Ctx() ctx: RequestContext,
    @Param('activity_id', UuidParamPipe) id: string,
    @Query() query: SessionsQueryDto,
  ) {
    return { sessions: await this.sessions.listForCourse(ctx, id, query.include_past, query.limit, query.include_cancelled) };
  }
}
