import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Whether the student already signed this waiver template (a completed signature, in the organization). */
export type WaiverSignedCheck = (
  em: EntityManager,
  organizationId: string,
  studentId: string,
  templateId: string,
) => Promise<boolean>;

/**
 * The inversion that lets a new seat start with its waiver already signed without scheduling
 * importing waivers (waivers depends on scheduling): the waivers module registers its check when it
 * starts, and createSeat asks it for a course that requires a waiver. A student who signed it (in
 * the store's checkout, or for an earlier seat) starts signed; without the waivers module, pending.
 */
@Injectable()
export class EnrollmentWaiverHooks {
  private check: WaiverSignedCheck | null = null;

  registerSignedCheck(check: WaiverSignedCheck): void {
    this.check = check;
  }

  async alreadySigned(em: EntityManager, organizationId: string, studentId: string, templateId: string): Promise<boolean> {
    return this.check ? this.check(em, organizationId, studentId, templateId) : false;
  }
}
