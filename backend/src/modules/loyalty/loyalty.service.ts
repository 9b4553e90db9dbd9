import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  LOYALTY_UNIT,
  type LoyaltyProgram as LoyaltyProgramOut,
  type LoyaltyStatus,
} from '@studio/contracts';
import { LoyaltyProgram } from './loyalty-program.entity';

/**
 * The loyalty programme of each organization. Other modules (products, and later orders and
 * students) ask this service whether points can be earned; they never read its tables.
 */
@Injectable()
export class LoyaltyService {
  constructor(private readonly em: EntityManager) {}

  /** The organization's programme; none reads as disabled. */
  async getProgram(organizationId: string): Promise<LoyaltyProgramOut> {
    const program = await this.em.fork().findOne(LoyaltyProgram, { organization: organizationId });
    return { status: program?.status ?? 'disabled', unit: LOYALTY_UNIT };
  }

  /** True when the organization's programme is active: the rule for earning and adjusting points. */
  async isActive(organizationId: string): Promise<boolean> {
    return (await this.getProgram(organizationId)).status === 'active';
  }

  /** Turns the programme on or off, creating it on first use (one row per organization). */
  async setStatus(
    organizationId: string,
    status: LoyaltyStatus,
    userId: string | null,
  ): Promise<LoyaltyProgramOut> {
    await this.em.getConnection().execute(
      `insert into loyalty_program (id, organization_id, status, unit, updated_by, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, ?, ?, now(), now())
       on conflict (organization_id) do update
         set status = excluded.status, updated_by = excluded.updated_by, updated_at = now()`,
      [organizationId, status, LOYALTY_UNIT, userId],
    );
    return { status, unit: LOYALTY_UNIT };
  }
}
