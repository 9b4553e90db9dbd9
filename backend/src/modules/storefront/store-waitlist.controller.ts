import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { STORE_MESSAGES, WAITLIST_MESSAGES as M } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { isUuid } from '../../common/uuid-param.pipe';
import { ApiError } from '../../common/api-error';
import type { Organization } from '../organizations/organization.entity';
import {
  WaitlistClaimDto,
  WaitlistClaimQueryDto,
  WaitlistJoinDto,
  WaitlistJoinResultDto,
} from '../waitlist/waitlist.dto';
import { WaitlistService } from '../waitlist/waitlist.service';
import { PublicRateLimitGuard } from './public-rate-limit.guard';
import { CurrentStore, StoreGuard } from './store.guard';
import { STOREFRONT_TAG } from './storefront.controller';

const SLUG_PARAM = ApiParam({
  name: 'slug',
  description: "The store's address (Settings → Organization), as in PUBLIC_APP_URL/s/{slug}",
  example: 'demo-studio',
});

/**
 * The store's waitlist (issue 23, Storefront API): joining a sold-out session's waitlist, and the
 * offer a claim link names. Rate-limited per address like every public call; neither answers
 * anything about another buyer.
 */
@ApiTags(STOREFRONT_TAG)
@Controller('public/:slug')
@UseGuards(PublicRateLimitGuard, StoreGuard)
@ApiTooManyRequestsResponse({ type: ErrorBodyDto, description: STORE_MESSAGES.tooManyRequests })
export class StoreWaitlistController {
  constructor(private readonly waitlist: WaitlistService) {}

  @Post('sessions/:event_id/waitlist')
  @HttpCode(200)
  @SLUG_PARAM
  @ApiOperation({
    summary: "Joins a sold-out session's waitlist: name, email and party size (1 to the session's capacity)",
    description:
      `The same email on the same session is one entry: joining again changes nothing and answers exactly as a first join (status joined, "${M.joined}"), so the answer tells nothing about who waits; the entry's owner is mailed their place instead. ` +
      `The party is mailed a confirmation of its place; when seats free up, the first waiting party that fits is mailed a claim link and the seats are held for it. ` +
      `A session with a seat left takes no entry: 409 "${M.hasSeats}".`,
  })
  @ApiInvalidBody()
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, or ${M.sessionNotFound}`,
  })
  @ApiConflictResponse({ type: ErrorBodyDto, description: M.hasSeats })
  @ZodResponse({ status: 200, type: WaitlistJoinResultDto })
  join(
    @CurrentStore() store: Organization,
    @Param('event_id') eventId: string,
    @Body() body: WaitlistJoinDto,
  ) {
    if (!isUuid(eventId)) throw new ApiError(404, M.sessionNotFound);
    return this.waitlist.join(store.id, eventId.toLowerCase(), body);
  }

  @Get('waitlist/claim')
  @SLUG_PARAM
  @ApiOperation({
    summary: 'The waitlist offer a claim link names: offered (held until offered_until), claimed, or ended',
    description: `The checkout books it with claim_token. A token this store never gave answers 404 "${M.offerNotFound}".`,
  })
  @ApiInvalidQuery()
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: `${STORE_MESSAGES.storeNotFound}, or ${M.offerNotFound}`,
  })
  @ZodResponse({ status: 200, type: WaitlistClaimDto })
  claim(@CurrentStore() store: Organization, @Query() query: WaitlistClaimQueryDto) {
    return this.waitlist.claimState(store.id, query.token);
  }
}
