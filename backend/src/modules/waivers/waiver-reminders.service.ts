import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { WAIVER_MESSAGES as M, REMINDER_INTERVAL_MS } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { MailService } from '../notifications/mail.service';
import { EsignPort } from './esign.port';
import { WaiverEvents } from './waiver-events';
import { WaiverProvider } from './waiver-provider';
import { WaiverSubmission } from './waiver-submission.entity';

/**
 * Reminders of a pending signature request: the admin's Remind (at most once an hour per request,
 * refused once signed, expired or withdrawn) records the reminder and announces it in one
 * transaction (waiver.reminded, the outbox); the handler has the provider remind, or mails the sign
 * link again, once per reminder.
 */
@Injectable()
export class WaiverRemindersService {
  constructor(
    private readonly em: EntityManager,
    private readonly esign: EsignPort,
    private readonly provider: WaiverProvider,
    private readonly events: WaiverEvents,
    private readonly mail: MailService,
  ) {}

  async requireSubmission(ctx: RequestContext, id: string): Promise<WaiverSubmission> {
    const submission = await this.em.fork().findOne(WaiverSubmission, { id, organizationId: ctx.organizationId });
    if (!submission) throw notFound(M.submissionNotFound);
    return submission;
  }

  /** GET /api/admin/submission/remind/{id}: refused when signed or expired, at most once an hour, then announced. */
  async remind(ctx: RequestContext, submissionId: string): Promise<WaiverSubmission> {
    const submission = await this.requireSubmission(ctx, submissionId);
    if (submission.status === 'completed') throw new ApiError(HttpStatus.CONFLICT, M.alreadySigned);
    // A withdrawn request is no longer the student's: answered as an unknown one.
    if (submission.withdrawnAt) throw notFound(M.submissionNotFound);
    if (submission.status === 'expired') throw new ApiError(HttpStatus.CONFLICT, M.expired);
    const reminded = await this.em.fork().transactional(async (tx) => {
      // One statement decides: two clicks at once send one reminder.
      const [row] = await tx.execute<{ last_reminded_at: Date }[]>(
        `update waiver_submission set last_reminded_at = now()
          where id = ? and organization_id = ? and status = 'pending' and withdrawn_at is null
            and (last_reminded_at is null or last_reminded_at <= now() - (? * interval '1 millisecond'))
          returning last_reminded_at`,
        [submission.id, ctx.organizationId, REMINDER_INTERVAL_MS],
      );
      if (!row) return false;
      const remindedAt = new Date(row.last_reminded_at).toISOString();
      await this.events.publish(tx, { type: 'waiver.reminded', organizationId: ctx.organizationId, submissionId: submission.id, remindedAt });
      return true;
    });
    if (!reminded) {
      const now = await this.requireSubmission(ctx, submissionId);
      if (now.status === 'completed') throw new ApiError(HttpStatus.CONFLICT, M.alreadySigned);
      if (now.withdrawnAt) throw notFound(M.submissionNotFound);
      throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, M.reminderTooSoon);
    }
    return this.requireSubmission(ctx, submissionId);
  }

  /** waiver.reminded's handler: the request is made first if it never was; the provider reminds, or we mail the link again. */
  async sendReminder(submissionId: string, remindedAt: string): Promise<void> {
    const submission = await this.provider.ensureRequested(submissionId);
    if (!submission || submission.status !== 'pending' || submission.withdrawnAt) return;
    // A seat sharing another request (issue 25) is reminded through that request's link.
    const request = submission.sharesRequestOf ? await this.provider.ensureRequested(submission.sharesRequestOf) : submission;
    if (!request?.signUrl || request.status !== 'pending') return;
    if (request.providerSubmitterId && (await this.esign.remind(request.providerSubmitterId))) return;
    const { signer, template } = await this.provider.parties(submission);
    await this.mail.enqueue({
      to: signer.email,
      subject: `Reminder: please sign ${template.name}`,
      text: `Hello ${signer.firstName},\n\nA reminder to read and sign "${template.name}" before your class:\n${request.signUrl}\n\nThank you.`,
      dedupeKey: `waiver-remind:${submission.id}:${remindedAt}`,
    });
  }
}
