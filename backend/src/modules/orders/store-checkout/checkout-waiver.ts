/**
 * The course's waiver in the store checkout (issue 33, split from store-checkout.service.ts): its
 * signing started for the buyer as typed (POST waiver), the signing's status (GET waiver/status),
 * and, in a booking's checkout transaction, the signature the booking requires. Through the waivers
 * module's exported service only.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  STORE_WAIVER_MESSAGES as W,
  type StoreWaiverRequest,
  type StoreWaiverStart,
  type StoreWaiverStatus,
} from '@studio/contracts';
import { ApiError, notFound } from '../../../common/api-error';
import { LoyaltyCodesService } from '../../loyalty/loyalty-codes.service';
import { Organization } from '../../organizations/organization.entity';
import { StudentsService } from '../../students/students.service';
import { WaiversService } from '../../waivers/waivers.service';
import { Order } from '../entities/order.entity';
import { requireAppointmentCourse, requireStoreSession } from './checkout-shared';

@Injectable()
export class StoreCheckoutWaiver {
  constructor(
    private readonly em: EntityManager,
    private readonly waivers: WaiversService,
    private readonly pointsCodes: LoyaltyCodesService,
    private readonly students: StudentsService,
  ) {}

  /**
   * POST waiver (issue 21, step 4): a new signing of the course's waiver for the buyer as typed,
   * through the waivers module. It says nothing about the email's owner and creates no student
   * (issue 31): the checkout that uses the signature finds or creates the student. Only a buyer who
   * proved the email (points_token of points/verify, for this email's student) and signed this
   * waiver before has nothing to sign.
   */
  async start(organization: Organization, input: StoreWaiverRequest): Promise<StoreWaiverStart> {
    // A session's course, or an appointment course (issue 22).
    const templateId = input.event_id
      ? (await requireStoreSession(this.em, organization, input.event_id)).required_waiver_id
      : (await requireAppointmentCourse(this.em, organization, input.activity_id!, 1)).required_waiver_id;
    if (!templateId) throw new ApiError(HttpStatus.BAD_REQUEST, W.notRequired);
    const started = await this.waivers.startForCheckout({
      organizationId: organization.id,
      templateId,
      signer: { email: input.email, name: `${input.first_name} ${input.last_name}` },
      provenStudentId: await this.provenStudent(organization, input.points_token, input.email),
    });
    return { signed: started.signed, signing_url: started.signUrl, waiver_token: started.token };
  }

  /** GET waiver/status: the signing named by the token, in this store; 404 for any other token. */
  async status(organization: Organization, token: string): Promise<StoreWaiverStatus> {
    const submission = await this.waivers.checkoutSubmission(organization.id, token);
    if (!submission) throw notFound(W.notFound);
    return { status: submission.status, signed: submission.status === 'completed' };
  }

  /**
   * The course's waiver signed for the buyer, when it requires one, in the checkout's transaction:
   * a signing of this checkout's email (it becomes the student's), or, for a buyer who proved the
   * email (`provenStudentId`), a signature the student made before. The waiver is the buyer's: the
   * guests of a party are seats of the buyer's booking, not students, so they sign nothing here.
   */
  async requireSigned(
    em: EntityManager,
    organization: Organization,
    student: Order['student'],
    templateId: string | null,
    token: string | undefined,
    provenStudentId: string | null,
  ): Promise<void> {
    if (!templateId) return;
    const refusal = await this.waivers.acceptForCheckout(em, {
      organizationId: organization.id,
      templateId,
      student: { id: student.id, email: student.email },
      token,
      proven: provenStudentId === student.id,
    });
    if (refusal) {
      const message = refusal === 'token' ? W.tokenInvalid : W.notSigned;
      throw new ApiError(HttpStatus.BAD_REQUEST, message, { waiver_token: message });
    }
  }

  /** The student a valid proof token was given to, when it is this email's student; null otherwise. */
  private async provenStudent(organization: Organization, token: string | undefined, email: string): Promise<string | null> {
    if (!token) return null;
    const proven = await this.pointsCodes.studentForToken(organization.id, token);
    if (!proven) return null;
    const student = await this.students.findByEmail(organization.id, email);
    return student?.id === proven ? proven : null;
  }
}
