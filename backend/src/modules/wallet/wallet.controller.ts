import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { walletAdjustSchema, walletCoveringQuerySchema, walletCoveringSchema, walletSchema } from '@studio/contracts';
import { ZodResponse, ZodValidationException } from 'nestjs-zod';
import { ApiInvalidBody, ApiInvalidQuery } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { createZodDto } from '../../common/zod-dto';
import { Auth } from '../identity/auth.guard';
import { StudentsService } from '../students/students.service';
import { WalletBookingService } from './wallet-booking.service';
import { WalletService } from './wallet.service';

class WalletDto extends createZodDto(walletSchema) {}
class WalletAdjustDto extends createZodDto(walletAdjustSchema) {}
class WalletCoveringDto extends createZodDto(walletCoveringSchema) {}

@ApiTags('wallet')
@Controller('admin/student')
export class WalletController {
  constructor(
    private readonly students: StudentsService,
    private readonly wallet: WalletService,
    private readonly booking: WalletBookingService,
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

  @Get(':student_id/wallet/covering')
  @Auth()
  @ApiOperation({
    summary:
      "The student's memberships and class packs that can book the course now (Add student's \"Book on …\"): memberships first, then packs soonest to expire",
  })
  @ApiQuery({ name: 'activity_id', required: true, type: String, description: "the course's id" })
  @ZodResponse({ status: 200, type: WalletCoveringDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'No such student or course in the organization' })
  @ApiInvalidQuery()
  async covering(@Ctx() ctx: RequestContext, @Param('student_id', UuidParamPipe) studentId: string, @Query() raw: Record<string, unknown>) {
    const parsed = walletCoveringQuerySchema.safeParse(raw);
    if (!parsed.success) throw new ZodValidationException(parsed.error);
    await this.students.requireStudent(ctx, studentId);
    return { holdings: await this.booking.covering(ctx.organizationId, studentId, parsed.data.activity_id) };
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
