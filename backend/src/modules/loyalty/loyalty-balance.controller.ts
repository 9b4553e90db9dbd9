import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { loyaltyBalanceSetSchema, loyaltyEntrySchema } from '@studio/contracts';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { ApiInvalidBody } from '../../common/api-errors';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { createZodDto } from '../../common/zod-dto';
import { Auth } from '../identity/auth.guard';
import { StudentsService } from '../students/students.service';
import { LoyaltyLedgerService } from './loyalty-ledger.service';

class LoyaltyBalanceSetDto extends createZodDto(loyaltyBalanceSetSchema) {}
class LoyaltyBalanceDto extends createZodDto(
  z.object({
    LoyaltyBalance: z
      .array(loyaltyEntrySchema)
      .describe('newest first; the first entry is the current balance'),
  }),
) {}

@ApiTags('loyalty')
@Controller('admin/student')
@Auth()
export class LoyaltyBalanceController {
  constructor(
    private readonly students: StudentsService,
    private readonly ledger: LoyaltyLedgerService,
  ) {}

  @Post(':student_id/loyalty-balance/set')
  @HttpCode(200)
  @ApiOperation({
    summary: "Set a student's points balance; a ledger entry records the difference (spec 001 §7)",
  })
  @ZodResponse({ status: 200, type: LoyaltyBalanceDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'No such student in the organization' })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'Loyalty program is not active' })
  @ApiInvalidBody()
  async set(
    @Ctx() ctx: RequestContext,
    @Param('student_id', UuidParamPipe) studentId: string,
    @Body() body: LoyaltyBalanceSetDto,
  ) {
    await this.students.requireStudent(ctx, studentId);
    return { LoyaltyBalance: await this.ledger.setBalance(ctx, studentId, body.amount) };
  }
}
