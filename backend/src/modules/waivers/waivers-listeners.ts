import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { EnrollmentEvents } from '../scheduling/enrollment-events';
import { EnrollmentWaiverHooks } from '../scheduling/enrollment-waiver.hooks';
import { StudentDetailParts, StudentWaiversSource } from '../students/student-detail-parts';
import { WaiverReadModels } from './waiver-read-models';
import { WaiversService } from './waivers.service';

/**
 * Where the waivers module joins the others without them importing it: an enrollment in a course
 * that requires a waiver gets a signature request (none when the student already signed that
 * waiver: the signature is linked to the seat, no mail), a removed one has its pending request withdrawn
 * (EnrollmentEvents), and the student detail gets
 * the student's submissions (StudentDetailParts).
 */
@Injectable()
export class WaiversListeners implements OnModuleInit, StudentWaiversSource {
  constructor(
    private readonly enrollments: EnrollmentEvents,
    private readonly parts: StudentDetailParts,
    private readonly waivers: WaiversService,
    private readonly waiverHooks: EnrollmentWaiverHooks,
    private readonly reads: WaiverReadModels,
  ) {}

  onModuleInit(): void {
    this.parts.registerWaivers(this);
    // A new seat of a student who already signed the course's waiver starts signed.
    this.waiverHooks.registerSignedCheck((em, organizationId, studentId, templateId) =>
      this.waivers.hasSigned(em, organizationId, studentId, templateId),
    );
    this.enrollments.on('enrollment.created', 'waivers', async (e) => {
      if (!e.requiredWaiverId) return;
      await this.waivers.requestForEnrollment({
        organizationId: e.organizationId,
        studentId: e.studentId,
        enrollmentId: e.enrollmentId,
        templateId: e.requiredWaiverId,
      });
    });
    this.enrollments.on('enrollment.removed', 'waivers', async (e) => {
      await this.waivers.withdrawForRemovedEnrollment({
        organizationId: e.organizationId,
        studentId: e.studentId,
        enrollmentId: e.enrollmentId,
      });
    });
  }

  submissions(ctx: RequestContext, studentId: string) {
    return this.reads.forStudent(ctx, studentId);
  }
}
