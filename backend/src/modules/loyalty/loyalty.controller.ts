import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import { ApiInvalidBody } from '../../common/api-errors';
import { Ctx, RequestContext } from '../../common/request-context';
import { Auth } from '../identity/auth.guard';
import { LoyaltyProgramDto, LoyaltyProgramUpdateDto } from './loyalty.dto';
import { LoyaltyService } from './loyalty.service';

@ApiTags('loyalty')
@Controller('admin/loyalty-program')
export class LoyaltyController {
  constructor(private readonly loyalty: LoyaltyService) {}

  @Get()
  @Auth()
  @ApiOperation({ summary: "The organization's loyalty programme: status (active or disabled) and unit" })
  @ZodResponse({ status: 200, type: LoyaltyProgramDto })
  get(@Ctx() ctx: RequestContext) {
    return this.loyalty.getProgram(ctx.organizationId);
  }

  @Put()
  @Auth('owner', 'super_admin')
  @ApiOperation({ summary: 'Enable or disable the loyalty programme (100 points = $1.00)' })
  @ZodResponse({ status: 200, type: LoyaltyProgramDto })
  @ApiInvalidBody()
  update(@Ctx() ctx: RequestContext, @Body() body: LoyaltyProgramUpdateDto) {
    return this.loyalty.setStatus(ctx.organizationId, body.status, ctx.userId);
  }
}
