import { Body, Controller, Delete, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { SYNC_MESSAGES as M, SYNC_PROVIDERS } from '@studio/contracts';
import type { FastifyRequest } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { ApiInvalidBody } from '../../../common/api-errors';
import { ErrorBodyDto } from '../../../common/error-body.dto';
import { Ctx, RequestContext } from '../../../common/request-context';
import { Auth } from '../../identity/auth.guard';
import { SyncAuthorizeDto, SyncAuthorizeOutDto, SyncCallbackDto, SyncProviderOutDto } from '../sync.dto';
import { requireProvider, SyncSettingsService } from '../sync-settings.service';
import { SyncConnectService } from './sync-connect.service';

const providerParam = () => ApiParam({ name: 'provider', schema: { type: 'string', enum: [...SYNC_PROVIDERS] } });

/** Connect (OAuth 2.0 code flow; PKCE S256 for Klaviyo) and Disconnect, spec 001 §7. */
@ApiTags('sync')
@Controller('admin/sync/providers')
@Auth()
export class SyncOAuthController {
  constructor(
    private readonly connect: SyncConnectService,
    private readonly settings: SyncSettingsService,
  ) {}

  @Post(':provider/authorize')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Start Connect: the provider's authorize URL, with a one-use state bound to the caller's session (10 minutes). Klaviyo: send the S256 code_challenge of a verifier the browser keeps in local storage.",
  })
  @providerParam()
  @ZodResponse({ status: 200, type: SyncAuthorizeOutDto })
  @ApiInvalidBody()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.unknownProvider })
  @ApiConflictResponse({ type: ErrorBodyDto, description: "The provider's OAuth client id and secret are not set (the message names the env vars)" })
  async authorize(
    @Ctx() ctx: RequestContext,
    @Param('provider') provider: string,
    @Body() body: SyncAuthorizeDto,
    @Req() req: FastifyRequest,
  ) {
    const name = requireProvider(provider);
    const authorizeUrl = await this.connect.authorize(ctx, name, {
      codeChallenge: body.code_challenge,
      requestOrigin: `${req.protocol}://${req.headers.host ?? 'localhost'}`,
    });
    return { authorize_url: authorizeUrl };
  }

  @Post(':provider/callback')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Finish Connect: the code and state the provider sent back (and Klaviyo's code_verifier). Refused, changing nothing: a state that is unknown, used, expired, or of another session or organization, and a code or verifier the provider refuses. Answers the provider as GET reads it.",
  })
  @providerParam()
  @ZodResponse({ status: 200, type: SyncProviderOutDto })
  @ApiInvalidBody()
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: `${M.stateInvalid} / ${M.stateExpired} / the provider refused the code or verifier` })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.unknownProvider })
  @ApiConflictResponse({ type: ErrorBodyDto, description: `${M.stateUsed} / the OAuth client is not configured` })
  @ApiBadGatewayResponse({ type: ErrorBodyDto, description: 'The provider could not be reached' })
  async callback(@Ctx() ctx: RequestContext, @Param('provider') provider: string, @Body() body: SyncCallbackDto) {
    const name = requireProvider(provider);
    await this.connect.callback(ctx, name, { code: body.code, state: body.state, codeVerifier: body.code_verifier });
    return this.settings.view(ctx, name);
  }

  @Delete(':provider/connection')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Disconnect: revokes the tokens at the provider where it can (Klaviyo, Zoom) and forgets them in every case',
  })
  @providerParam()
  @ApiNoContentResponse({ description: 'Disconnected (also when nothing was connected)' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.unknownProvider })
  async disconnect(@Ctx() ctx: RequestContext, @Param('provider') provider: string): Promise<void> {
    await this.connect.disconnect(ctx, requireProvider(provider));
  }
}
