import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  SYNC_CONFLICT_MESSAGES,
  SYNC_JOB_MESSAGES,
  SYNC_MESSAGES as M,
  SYNC_PROVIDERS,
  SyncConfigPayload,
} from '@studio/contracts';
import { EntityManager } from '@mikro-orm/postgresql';
import { ZodResponse } from 'nestjs-zod';
import { ApiInvalidBody, ApiUnexpectedBody } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { Auth } from '../identity/auth.guard';
import { SyncConfigPayloadDto, SyncProviderOutDto } from './sync.dto';
import { requireProvider, SyncSettingsService } from './sync-settings.service';
import { SyncJobsService } from './jobs/sync-jobs.service';
import { resolveSaleConflict } from './drivers/eventbrite/eventbrite-conflicts';

@ApiTags('sync')
@Controller('admin/sync/providers')
@Auth()
export class SyncController {
  constructor(private readonly settings: SyncSettingsService) {}

  @Put('config_schema')
  @ApiOperation({
    summary:
      "Save a provider's config_schema settings (spec 001 §3, §7): provider_name plus that provider's own fields; fields left out keep their value",
  })
  @ZodResponse({ status: 200, type: SyncProviderOutDto })
  @ApiInvalidBody()
  async saveConfig(@Ctx() ctx: RequestContext, @Body() body: SyncConfigPayloadDto) {
    return this.settings.save(ctx, body as unknown as SyncConfigPayload);
  }

  @Get(':provider')
  @ApiOperation({
    summary:
      "A sync provider for the caller's organization: connected or not, the account, config_schema; Eventbrite's organizations or the mailing-list service's lists",
  })
  @ApiParam({ name: 'provider', schema: { type: 'string', enum: [...SYNC_PROVIDERS] } })
  @ZodResponse({ status: 200, type: SyncProviderOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.unknownProvider })
  async get(@Ctx() ctx: RequestContext, @Param('provider') provider: string) {
    return this.settings.view(ctx, requireProvider(provider));
  }
}

@ApiTags('sync')
@Controller('admin/sync/mappings')
@Auth()
export class SyncMappingsController {
  constructor(
    private readonly jobs: SyncJobsService,
    private readonly settings: SyncSettingsService,
  ) {}

  @Post(':mapping_id/retry')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Retry a failed sync from the provider's panel: its last job is queued again with fresh attempts; answers the provider as GET /admin/sync/providers/{provider} does",
  })
  @ApiParam({ name: 'mapping_id', schema: { type: 'string', format: 'uuid' } })
  @ZodResponse({ status: 200, type: SyncProviderOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: SYNC_JOB_MESSAGES.mappingNotFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: SYNC_JOB_MESSAGES.mappingNotFailed })
  @ApiUnexpectedBody()
  async retry(@Ctx() ctx: RequestContext, @Param('mapping_id') mappingId: string) {
    const provider = await this.jobs.retry(ctx.organizationId, mappingId);
    return this.settings.view(ctx, provider);
  }
}

@ApiTags('sync')
@Controller('admin/sync/conflicts')
@Auth()
export class SyncConflictsController {
  constructor(
    private readonly em: EntityManager,
    private readonly settings: SyncSettingsService,
  ) {}

  @Post(':conflict_id/resolve')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Mark an Eventbrite sale conflict resolved (refunded or handled on Eventbrite): it leaves the Eventbrite panel, and the order is still never imported again; answers the provider as GET /admin/sync/providers/eventbrite does',
  })
  @ApiParam({ name: 'conflict_id', schema: { type: 'string', format: 'uuid' } })
  @ZodResponse({ status: 200, type: SyncProviderOutDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: SYNC_CONFLICT_MESSAGES.notFound })
  @ApiUnexpectedBody()
  async resolve(@Ctx() ctx: RequestContext, @Param('conflict_id') conflictId: string) {
    await resolveSaleConflict(this.em, ctx.organizationId, conflictId, ctx.userId);
    return this.settings.view(ctx, 'eventbrite');
  }
}
