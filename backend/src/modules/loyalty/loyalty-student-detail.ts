import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { StudentDetailParts, StudentLoyaltySource } from '../students/student-detail-parts';
import { LoyaltyLedgerService } from './loyalty-ledger.service';
import { LoyaltyService } from './loyalty.service';

/** Gives the student detail its LoyaltyBalance and the programme's state (registered in StudentDetailParts). */
@Injectable()
export class LoyaltyStudentDetail implements StudentLoyaltySource, OnModuleInit {
  constructor(
    private readonly parts: StudentDetailParts,
    private readonly ledger: LoyaltyLedgerService,
    private readonly loyalty: LoyaltyService,
  ) {}

  onModuleInit(): void {
    this.parts.registerLoyalty(this);
  }

  async balance(ctx: RequestContext, studentId: string) {
    const [entries, program] = await Promise.all([
      this.ledger.entries(ctx.organizationId, studentId),
      this.loyalty.getProgram(ctx.organizationId),
    ]);
    return { entries, programStatus: program.status };
  }
}
