import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { walletAdjustSchema, walletSchema } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { ApiInvalidBody } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { createZodDto } from '../../common/zod-dto';
import { Auth } from '../identity/auth.guard';
import { StudentsService } from '../students/students.service';
import { WalletService } from './wallet.service';

class WalletDto extends createZodDto(walletSchema) {}
class WalletAdjustDto extends createZodDto(walletAdjustSchema) {}

@ApiTags('wallet')
@Controller('admin/student')
export class WalletController {
  constructor(
    private readonly students: StudentsService,
    private readonly wallet: WalletService,
  ) {}

  @Get(':student_id/wallet')
  @Auth()
  @ApiOperation({
    summary: "A student's memberships, class packs, gift cards and store credit with their balances, and the newest ledger rows (issue 24)",
  })
  @ZodResponse({ status: 200, type: WalletDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'No such student in the organization' })
  async get(@Ctx() ctx: RequestContext, @Param('student_id', UuidParamPipe) studentId: string) {
    await this.students.requireStudent(ctx, studentId);
    return this.wallet.wallet(ctx.organizationId, studentId);
  }

  @Post(':student_id/wallet/:holding_id/adjust')
  @HttpCode(200)
  @Auth('owner', 'super_admin')
  @ApiOperation({
    summary: "An owner's signed change of a holding's balance with its reason, written to the ledger (never below zero); answers the wallet",
  })
  @ZodResponse({ status: 200, type: WalletDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: "No such student in the organization, or no such holding of the student's" })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'The holding has expired, or the change would take it below zero' })
  @ApiInvalidBody()
  async adjust(
    @Ctx() ctx: RequestContext,
    @Param('student_id', UuidParamPipe) studentId: string,
    @Param('holding_id', UuidParamPipe) holdingId: string,
    @Body() body: WalletAdjustDto,
  ) {
    await this.students.requireStudent(ctx, studentId);
    await this.wallet.adjust(ctx, studentId, holdingId, body);
    return this.wallet.wallet(ctx.organizationId, studentId);
  }
}
