import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { EnrollmentEvents } from '../scheduling/enrollment-events';
import { StudentDetailParts, StudentWaiversSource } from '../students/student-detail-parts';
import { WaiversService } from './waivers.service';

/**
 * Where the waivers module joins the others without them importing it: an enrollment in a course
 * that requires a waiver gets a signature request, a removed one has its pending request withdrawn
 * (EnrollmentEvents), and the student detail gets
 * the student's submissions (StudentDetailParts).
 */
@Injectable()
export class WaiversListeners implements OnModuleInit, StudentWaiversSource {
  constructor(
    private readonly enrollments: EnrollmentEvents,
    private readonly parts: StudentDetailParts,
    private readonly waivers: WaiversService,
  ) {}

  onModuleInit(): void {
    this.parts.registerWaivers(this);
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
    return this.waivers.forStudent(ctx, studentId);
  }
}
