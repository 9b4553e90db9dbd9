import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { EsignPort, EsignWebhookEvent } from './esign.port';
import { WaiverProvider } from './waiver-provider';
import { WaiverSubmission } from './waiver-submission.entity';

/**
 * How a signature request ends: completed (the provider's webhook, the demo signing page, the demo
 * data), recorded once and covering the student's other seats waiting on the same waiver, or
 * expired (the webhook). The enrollment's waiverStatus follows through EnrollmentsService. Also the
 * demo signing page's lookup of its submission.
 */
@Injectable()
export class WaiverCompletionService {
  private readonly logger = new Logger('Waivers');

  constructor(
    private readonly em: EntityManager,
    private readonly esign: EsignPort,
    private readonly provider: WaiverProvider,
    private readonly enrollments: EnrollmentsService,
  ) {}

  /**
   * Records completion once (a repeated webhook or a second click changes nothing) and moves the
   * enrollment's waiverStatus to signed. Answers whether this call completed it. A signature is
   * never withdrawn: one the provider reports for a request withdrawn meanwhile (signed before the
   * archive reached it) is recorded and shown again. The demo page refuses a withdrawn request itself.
   */
  async complete(submissionId: string, done: { completedAt: Date; submissionUrl: string | null; signerName?: string; signerIp?: string | null }): Promise<boolean> {
    const em = this.em.fork();
    const [row] = await em.execute<{ organization_id: string; enrollment_id: string | null }[]>(
      `update waiver_submission
          set status = 'completed', completed_at = ?, submission_url = coalesce(?, submission_url), signer_name = ?, signer_ip = ?, withdrawn_at = null
        where id = ? and status <> 'completed'
        returning organization_id, enrollment_id`,
      [done.completedAt, done.submissionUrl, done.signerName ?? null, done.signerIp ?? null, submissionId],
    );
    const existing = await em.findOne(WaiverSubmission, submissionId);
    if (!row) {
      // Already completed: a repeated delivery re-applies the enrollment's status (repairs a crash between the two writes).
      if (existing?.status === 'completed' && existing.enrollmentId) {
        await this.enrollments.setWaiverStatus(existing.organizationId, existing.enrollmentId, 'signed');
      }
    } else if (row.enrollment_id) await this.enrollments.setWaiverStatus(row.organization_id, row.enrollment_id, 'signed');
    if (existing?.status === 'completed') await this.completeOthers(existing);
    return Boolean(row);
  }

  /**
   * One signature covers the student's every seat waiting on this waiver (issue 25): their other
   * pending requests of it (the ones sharing this request, and any of their own) are completed
   * with it and their seats signed. Idempotent, so a repeated delivery repairs a crash in between.
   */
  private async completeOthers(signed: WaiverSubmission): Promise<void> {
    // A store checkout's signing not yet a student's covers nothing else (issue 31).
    if (!signed.studentId) return;
    const rows = await this.em.execute<{ enrollment_id: string | null }[]>(
      `update waiver_submission
          set status = 'completed', completed_at = ?, submission_url = coalesce(?, submission_url), signer_name = ?, signer_ip = ?
        where organization_id = ? and student_id = ? and template_id = ? and id <> ?
          and status = 'pending' and withdrawn_at is null
        returning enrollment_id`,
      [signed.completedAt, signed.submissionUrl ?? null, signed.signerName ?? null, signed.signerIp ?? null, signed.organizationId, signed.studentId, signed.templateId, signed.id],
    );
    const seats = await this.em.execute<{ enrollment_id: string }[]>(
      `select enrollment_id from waiver_submission
        where organization_id = ? and student_id = ? and template_id = ? and status = 'completed' and enrollment_id is not null`,
      [signed.organizationId, signed.studentId, signed.templateId],
    );
    const ids = new Set([...rows, ...seats].flatMap((r) => (r.enrollment_id ? [r.enrollment_id] : [])));
    for (const enrollmentId of ids) await this.enrollments.setWaiverStatus(signed.organizationId, enrollmentId, 'signed');
  }

  /** A provider's webhook, applied idempotently. Unknown submissions are ignored (another deployment's). */
  async applyWebhook(event: EsignWebhookEvent): Promise<void> {
    if (event.type === 'ignored') return;
    const submission = await this.em.fork().findOne(WaiverSubmission, { provider: this.esign.provider, providerSubmissionId: event.submissionId });
    if (!submission) {
      this.logger.warn(`Webhook for unknown ${this.esign.provider} submission ${event.submissionId}: ignored`);
      return;
    }
    if (event.type === 'completed') {
      await this.complete(submission.id, { completedAt: event.completedAt, submissionUrl: event.documentUrl });
      return;
    }
    // The seats sharing this request (issue 25) expire with it.
    await this.em.execute(
      `update waiver_submission set status = 'expired' where (id = ? or shares_request_of = ?) and status = 'pending'`,
      [submission.id, submission.id],
    );
    // Re-applied on a repeated delivery too; a signed waiver never becomes expired.
    const expired = await this.em.fork().find(WaiverSubmission, { $or: [{ id: submission.id }, { sharesRequestOf: submission.id }], status: 'expired' });
    for (const now of expired) {
      if (now.enrollmentId) await this.enrollments.setWaiverStatus(now.organizationId, now.enrollmentId, 'expired');
    }
  }

  /** The demo page's submission, by its provider id; a withdrawn one is not found (it cannot be signed). */
  async findDemo(providerSubmissionId: string) {
    const submission = await this.em.fork().findOne(WaiverSubmission, { provider: 'demo', providerSubmissionId });
    if (!submission || submission.withdrawnAt) return null;
    const { template } = await this.provider.parties(submission);
    return { submission, template };
  }
}
