import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WAITLIST_MESSAGES as M } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ApiInvalidBody } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Auth } from '../identity/auth.guard';
import { WaitlistDto, WaitlistMoveDto } from './waitlist.dto';
import { WaitlistAdminService } from './waitlist-admin.service';

/** The event drawer's waitlist (issue 23): the session's entries in order, remove, reorder, offer the seat. */
@ApiTags('waitlist')
@Controller('admin')
@Auth()
export class WaitlistController {
  constructor(private readonly waitlist: WaitlistAdminService) {}

  @Get('events/:event_id/waitlist')
  @ApiOperation({
    summary:
      "A session's waitlist in order: name, email, party size, joined, status (waiting, offered until …, claimed, expired, removed)",
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Event not found (also another organization’s)' })
  @ZodResponse({ status: 200, type: WaitlistDto })
  list(@Ctx() ctx: RequestContext, @Param('event_id', UuidParamPipe) eventId: string) {
    return this.waitlist.list(ctx, eventId);
  }

  @Delete('waitlist/:entry_id')
  @ApiOperation({
    summary: 'Takes an entry off the waitlist; an offered entry’s held seats go to the next parties that fit',
    description: 'Removing an entry again changes nothing. Answers the session’s waitlist.',
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.entryNotFound })
  @ZodResponse({ status: 200, type: WaitlistDto })
  remove(@Ctx() ctx: RequestContext, @Param('entry_id', UuidParamPipe) entryId: string) {
    return this.waitlist.remove(ctx, entryId);
  }

  @Post('waitlist/:entry_id/move')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Moves a waiting or offered entry one place up or down; answers the session’s waitlist',
  })
  @ApiInvalidBody()
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.entryNotFound })
  @ApiConflictResponse({ type: ErrorBodyDto, description: `${M.cannotMove}, or ${M.notActive}` })
  @ZodResponse({ status: 200, type: WaitlistDto })
  move(
    @Ctx() ctx: RequestContext,
    @Param('entry_id', UuidParamPipe) entryId: string,
    @Body() body: WaitlistMoveDto,
  ) {
    return this.waitlist.move(ctx, entryId, body.direction);
  }

  @Post('waitlist/:entry_id/offer')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Offer the seat: offers the entry its seats now (held for the claim time, the claim link mailed)',
    description: 'The same offer as when seats free up by themselves. Answers the session’s waitlist.',
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: M.entryNotFound })
  @ApiConflictResponse({
    type: ErrorBodyDto,
    description: `${M.seatsNotFree}; ${M.notWaiting}; ${M.finished}`,
  })
  @ZodResponse({ status: 200, type: WaitlistDto })
  offer(@Ctx() ctx: RequestContext, @Param('entry_id', UuidParamPipe) entryId: string) {
    return this.waitlist.offerNow(ctx, entryId);
  }
}
