import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DOCUMENT_URL_PATTERN, WAIVER_MESSAGES as M, REMINDER_INTERVAL_MS, type WaiverSubmission as WaiverSubmissionOut, type WaiverSummary } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { MediaService } from '../catalog/media.service';
import { ReferenceDataService } from '../catalog/reference-data.service';
import { MailService } from '../notifications/mail.service';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { StudentsService } from '../students/students.service';
import { EsignPort, EsignWebhookEvent } from './esign.port';
import { EsignTemplate, WaiverSubmission } from './waiver-submission.entity';

export const WAIVER_QUEUE = 'waivers';
const checkoutTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const SEND_JOB = 'send-waiver';
const REMIND_JOB = 'remind-waiver';
const ARCHIVE_JOB = 'archive-waiver';
type WaiverJob = { submissionId: string; remindedAt?: string };

/** The jobs run outside a request: the organization is the submission's own. */
const systemCtx = (organizationId: string): RequestContext => ({ organizationId, userId: '', sessionId: '', role: 'owner' });

/**
 * Waiver submissions: requested when a student enrolls in a course that requires a waiver (the
 * sign link is mailed by a queue job), or signed inside the store's checkout (keyed by the email
 * typed there until the checkout takes it for its student), reminded at most once an hour,
 * completed by the provider's webhook or the demo signing page. The enrollment's waiverStatus
 * follows through EnrollmentsService.
 */
@Injectable()
export class WaiversService implements OnModuleInit {
  private readonly logger = new Logger('Waivers');

  constructor(
    private readonly em: EntityManager,
    private readonly esign: EsignPort,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly mail: MailService,
    private readonly students: StudentsService,
    private readonly reference: ReferenceDataService,
    private readonly media: MediaService,
    private readonly enrollments: EnrollmentsService,
  ) {}

  onModuleInit(): void {
    this.queue.process(WAIVER_QUEUE, async (job) => {
      const data = job.data as WaiverJob;
      // Each job in its own MikroORM context: a BullMQ worker has none to inherit, and the other
      // modules' services (students, waiver templates, media) read through the request-scoped one.
      await OrmContext.create(this.em, async () => {
        if (job.name === SEND_JOB) await this.send(data.submissionId);
        if (job.name === REMIND_JOB) await this.sendReminder(data.submissionId, data.remindedAt ?? '');
        if (job.name === ARCHIVE_JOB) await this.archiveAtProvider(data.submissionId);
      });
    });
  }

  /**
   * A pending submission for the enrollment (once, however often announced), and the job that
   * requests it at the provider and mails the sign link.
   */
  async requestForEnrollment(input: { organizationId: string; studentId: string; enrollmentId: string | null; templateId: string; createdAt?: Date }): Promise<WaiverSubmission> {
    const em = this.em.fork();
    // A student who already signed this waiver (in the store's checkout, or for an earlier seat) is
    // not asked again: the signature is linked to the seat when it has none, the seat is signed, no mail.
    const own = input.enrollmentId ? await em.findOne(WaiverSubmission, { enrollmentId: input.enrollmentId }) : null;
    if (!own) {
      const signed = await this.signedSubmission(em, input.organizationId, input.studentId, input.templateId);
      if (signed) {
        if (input.enrollmentId) {
          await em.execute(
            `update waiver_submission set enrollment_id = ?
              where id = ? and enrollment_id is null
                and not exists (select 1 from waiver_submission o where o.enrollment_id = ?)`,
            [input.enrollmentId, signed.id, input.enrollmentId],
          );
          await this.enrollments.setWaiverStatus(input.organizationId, input.enrollmentId, 'signed');
        }
        return signed;
      }
    }
    // One decision per student and waiver at a time: two seats booked at once make one request.
    const inserted = await em.transactional(async (tx) => {
      await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`waiver:${input.studentId}:${input.templateId}`]);
      // A student with a pending request for this waiver (an earlier seat's, or the store
      // checkout's) is not asked again (issue 25): this seat shares it, with its sign link and no mail.
      const [pending] = own
        ? []
        : await tx.execute<{ id: string; sign_url: string | null }[]>(
            `select id, sign_url from waiver_submission
              where organization_id = ? and student_id = ? and template_id = ? and provider = ?
                and status = 'pending' and withdrawn_at is null and shares_request_of is null
              order by created_at, id limit 1`,
            [input.organizationId, input.studentId, input.templateId, this.esign.provider],
          );
      const [row] = await tx.execute<{ id: string }[]>(
        `insert into waiver_submission (id, organization_id, student_id, enrollment_id, template_id, status, provider, created_at, shares_request_of, sign_url)
         values (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)
         on conflict (enrollment_id) where enrollment_id is not null do nothing
         returning id`,
        [randomUUID(), input.organizationId, input.studentId, input.enrollmentId, input.templateId, this.esign.provider, input.createdAt ?? new Date(), pending?.id ?? null, pending?.sign_url ?? null],
      );
      return row?.id ?? null;
    });
    const submission = inserted
      ? await em.findOneOrFail(WaiverSubmission, inserted)
      : await em.findOneOrFail(WaiverSubmission, { enrollmentId: input.enrollmentId });
    if (submission.status === 'pending' && !submission.signUrl && !submission.sharesRequestOf) {
      await this.queue.add<WaiverJob>(WAIVER_QUEUE, SEND_JOB, { submissionId: submission.id }, { jobId: `waiver-send-${submission.id}` });
    }
    return submission;
  }

  /** The student's completed signature of this waiver template in the organization, if any (the latest). */
  private async signedSubmission(em: EntityManager, organizationId: string, studentId: string, templateId: string): Promise<WaiverSubmission | null> {
    return em.findOne(
      WaiverSubmission,
      { organizationId, studentId, templateId, status: 'completed' },
      { orderBy: { completedAt: 'desc' } },
    );
  }

  /** Whether the student signed this waiver template (EnrollmentWaiverHooks: a new seat starts signed). */
  async hasSigned(em: EntityManager, organizationId: string, studentId: string, templateId: string): Promise<boolean> {
    const rows = await em.execute<{ one: number }[]>(
      `select 1 as one from waiver_submission
        where organization_id = ? and student_id = ? and template_id = ? and status = 'completed' limit 1`,
      [organizationId, studentId, templateId],
    );
    return rows.length > 0;
  }

  /**
   * The store's checkout (issue 21): the buyer signs the course's waiver before paying, framed in
   * the checkout. It tells nothing about the email's owner (issue 31): each start is a new
   * signature request keyed by the email and name typed (no student is found or created, and no
   * earlier request of anyone's is reused), made at the provider now with no mail (the buyer is on
   * the page), and named by a new secret token (kept hashed). Only a buyer who proved the email
   * (`provenStudentId`: the store's one-time code) and signed this waiver before signs nothing: the
   * token then names that signature.
   */
  async startForCheckout(input: {
    organizationId: string;
    templateId: string;
    signer: { email: string; name: string };
    provenStudentId: string | null;
  }): Promise<{ signed: true; signUrl: null; token: string } | { signed: false; signUrl: string; token: string }> {
    const em = this.em.fork();
    const token = randomBytes(32).toString('base64url');
    if (input.provenStudentId) {
      const signed = await this.signedSubmission(em, input.organizationId, input.provenStudentId, input.templateId);
      if (signed) {
        await em.execute(`update waiver_submission set checkout_token_hash = ? where id = ?`, [checkoutTokenHash(token), signed.id]);
        return { signed: true, signUrl: null, token };
      }
    }
    const submission = em.create(WaiverSubmission, {
      organizationId: input.organizationId,
      templateId: input.templateId,
      provider: this.esign.provider,
      checkoutEmail: input.signer.email.trim().toLowerCase(),
      checkoutName: input.signer.name.trim().slice(0, 201),
      checkoutTokenHash: checkoutTokenHash(token),
    });
    await em.flush();
    const requested = await this.ensureRequested(submission.id);
    if (!requested?.signUrl) throw new Error(`Waiver request ${submission.id} has no sign URL`);
    return { signed: false, signUrl: requested.signUrl, token };
  }

  /** The checkout's signature request named by its token, in the organization; null for any other token. */
  async checkoutSubmission(organizationId: string, token: string): Promise<WaiverSubmission | null> {
    return this.em.fork().findOne(WaiverSubmission, { organizationId, checkoutTokenHash: checkoutTokenHash(token) });
  }

  /**
   * Whether a store checkout of a course requiring this waiver may go on for its buyer, in the
   * checkout's transaction. With a token, it must name a signature request of this waiver in the
   * organization started for this email (or the student's own), 'token' otherwise; completed, it
   * may, and a request of the email becomes the student's (the seat then starts signed). Without a
   * completed one, only a buyer who proved the email (`proven`) and signed this waiver before may
   * go on ('unsigned' otherwise). Null when it may.
   */
  async acceptForCheckout(
    em: EntityManager,
    input: { organizationId: string; templateId: string; student: { id: string; email: string }; token?: string; proven: boolean },
  ): Promise<'token' | 'unsigned' | null> {
    if (input.token) {
      const [submission] = await em.execute<{ id: string; student_id: string | null; checkout_email: string | null; template_id: string; status: string }[]>(
        `select id, student_id, checkout_email, template_id, status from waiver_submission
          where organization_id = ? and checkout_token_hash = ? for update`,
        [input.organizationId, checkoutTokenHash(input.token)],
      );
      const own =
        submission?.template_id === input.templateId &&
        (submission.student_id
          ? submission.student_id === input.student.id
          : submission.checkout_email === input.student.email.trim().toLowerCase());
      if (!own) return 'token';
      if (submission.status === 'completed') {
        if (!submission.student_id)
          await em.execute(`update waiver_submission set student_id = ? where id = ? and student_id is null`, [input.student.id, submission.id]);
        return null;
      }
    }
    return input.proven && (await this.hasSigned(em, input.organizationId, input.student.id, input.templateId)) ? null : 'unsigned';
  }

  /**
   * Demo data: a submission for an enrollment as it stands, requested at the provider without mail,
   * and completed when `signed` is given (by the typed name, at that time, from a documentation address).
   */
  async recordDemo(input: { organizationId: string; studentId: string; enrollmentId: string; templateId: string; createdAt: Date; signed: { at: Date; name: string } | null }): Promise<void> {
    const em = this.em.fork();
    const submission = em.create(WaiverSubmission, {
      organizationId: input.organizationId,
      studentId: input.studentId,
      enrollmentId: input.enrollmentId,
      templateId: input.templateId,
      provider: this.esign.provider,
      createdAt: input.createdAt,
    });
    await em.flush();
    const requested = await this.ensureRequested(submission.id);
    if (input.signed) {
      await this.complete(submission.id, { completedAt: input.signed.at, submissionUrl: requested?.signUrl ?? null, signerName: input.signed.name, signerIp: '203.0.113.7' });
    }
  }

  /** The job: the provider's template and submission (once), then the mail with the sign link (deduplicated). */
  async send(submissionId: string): Promise<void> {
    const submission = await this.ensureRequested(submissionId);
    if (!submission || submission.status !== 'pending' || submission.withdrawnAt || !submission.signUrl) return;
    const { signer, template } = await this.parties(submission);
    await this.mail.enqueue({
      to: signer.email,
      subject: `Please sign: ${template.name}`,
      text: `Hello ${signer.firstName},\n\nBefore your class, please read and sign "${template.name}":\n${submission.signUrl}\n\nThank you.`,
      dedupeKey: `waiver-sign:${submission.id}`,
    });
  }

  /** Makes the signature request at the provider unless it was made; answers the submission as stored. */
  private async ensureRequested(submissionId: string): Promise<WaiverSubmission | null> {
    const em = this.em.fork();
    const submission = await em.findOne(WaiverSubmission, submissionId);
    // A seat sharing another request (issue 25) never makes one of its own.
    if (!submission || submission.signUrl || submission.status !== 'pending' || submission.withdrawnAt || submission.sharesRequestOf) return submission;
    const { signer, template } = await this.parties(submission);
    const providerTemplateId = await this.providerTemplate(em, submission.organizationId, template);
    const created = await this.esign.createSubmission({
      providerTemplateId,
      externalId: submission.id,
      signerEmail: signer.email,
      signerName: signer.name,
    });
    // Only the first request is kept (a retried job after a lost answer finds it stored).
    await em.execute(
      `update waiver_submission set provider_submission_id = ?, provider_submitter_id = ?, sign_url = ? where id = ? and sign_url is null`,
      [created.submissionId, created.submitterId, created.signUrl, submission.id],
    );
    // The seats sharing this request show its sign link too.
    await em.execute(
      `update waiver_submission s set sign_url = r.sign_url
         from waiver_submission r
        where r.id = ? and s.shares_request_of = r.id and s.sign_url is null and r.sign_url is not null`,
      [submission.id],
    );
    const stored = await em.findOne(WaiverSubmission, submissionId, { refresh: true });
    // Withdrawn while the request was being made: the withdrawal saw no provider submission to archive.
    if (stored?.withdrawnAt && stored.status === 'pending') await this.queueArchive(stored.id);
    return stored;
  }

  private async providerTemplate(
    em: EntityManager,
    organizationId: string,
    template: { id: string; name: string; body: string; documentUrl?: string | null },
  ): Promise<string> {
    const known = await em.findOne(EsignTemplate, { templateId: template.id, provider: this.esign.provider });
    if (known) return known.providerTemplateId;
    // An uploaded PDF is the document to sign; otherwise the waiver's text.
    const pdf =
      template.documentUrl && DOCUMENT_URL_PATTERN.test(template.documentUrl)
        ? await this.media.readDocument(systemCtx(organizationId), template.documentUrl)
        : null;
    const providerTemplateId = await this.esign.ensureTemplate({ externalId: template.id, name: template.name, text: template.body, pdf });
    await em.execute(
      `insert into esign_template (template_id, provider, provider_template_id) values (?, ?, ?) on conflict do nothing`,
      [template.id, this.esign.provider, providerTemplateId],
    );
    const stored = await em.findOneOrFail(EsignTemplate, { templateId: template.id, provider: this.esign.provider }, { refresh: true });
    return stored.providerTemplateId;
  }

  /**
   * Who signs and what: the student, or for a store checkout's request not yet a student's, the
   * email and name typed there; and the waiver template.
   */
  private async parties(submission: WaiverSubmission) {
    const ctx = systemCtx(submission.organizationId);
    const [student, template] = await Promise.all([
      submission.studentId ? this.students.requireStudent(ctx, submission.studentId) : null,
      this.reference.requireWaiver(ctx, submission.templateId),
    ]);
    const typed = submission.checkoutName ?? '';
    const signer = student
      ? { email: student.email, firstName: student.firstName, name: `${student.firstName} ${student.lastName}`.trim() }
      : { email: submission.checkoutEmail ?? '', firstName: typed.split(' ')[0] ?? '', name: typed };
    return { signer, template };
  }

  /** GET /api/admin/submission/remind/{id}: refused when signed or expired, at most once an hour, then a queue job. */
  async remind(ctx: RequestContext, submissionId: string): Promise<WaiverSubmission> {
    const submission = await this.requireSubmission(ctx, submissionId);
    if (submission.status === 'completed') throw new ApiError(HttpStatus.CONFLICT, M.alreadySigned);
    // A withdrawn request is no longer the student's: answered as an unknown one.
    if (submission.withdrawnAt) throw notFound(M.submissionNotFound);
    if (submission.status === 'expired') throw new ApiError(HttpStatus.CONFLICT, M.expired);
    // One statement decides: two clicks at once send one reminder.
    const [row] = await this.em.execute<{ last_reminded_at: Date }[]>(
      `update waiver_submission set last_reminded_at = now()
        where id = ? and organization_id = ? and status = 'pending' and withdrawn_at is null
          and (last_reminded_at is null or last_reminded_at <= now() - (? * interval '1 millisecond'))
        returning last_reminded_at`,
      [submission.id, ctx.organizationId, REMINDER_INTERVAL_MS],
    );
    if (!row) {
      const now = await this.requireSubmission(ctx, submissionId);
      if (now.status === 'completed') throw new ApiError(HttpStatus.CONFLICT, M.alreadySigned);
      if (now.withdrawnAt) throw notFound(M.submissionNotFound);
      throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, M.reminderTooSoon);
    }
    const remindedAt = new Date(row.last_reminded_at).toISOString();
    await this.queue.add<WaiverJob>(WAIVER_QUEUE, REMIND_JOB, { submissionId: submission.id, remindedAt }, { jobId: `waiver-remind-${submission.id}-${Date.parse(remindedAt)}` });
    return this.requireSubmission(ctx, submissionId);
  }

  /** The reminder job: the request is made first if it never was; the provider reminds, or we mail the link again. */
  async sendReminder(submissionId: string, remindedAt: string): Promise<void> {
    const submission = await this.ensureRequested(submissionId);
    if (!submission || submission.status !== 'pending' || submission.withdrawnAt) return;
    // A seat sharing another request (issue 25) is reminded through that request's link.
    const request = submission.sharesRequestOf ? await this.ensureRequested(submission.sharesRequestOf) : submission;
    if (!request?.signUrl || request.status !== 'pending') return;
    if (request.providerSubmitterId && (await this.esign.remind(request.providerSubmitterId))) return;
    const { signer, template } = await this.parties(submission);
    await this.mail.enqueue({
      to: signer.email,
      subject: `Reminder: please sign ${template.name}`,
      text: `Hello ${signer.firstName},\n\nA reminder to read and sign "${template.name}" before your class:\n${request.signUrl}\n\nThank you.`,
      dedupeKey: `waiver-remind:${submission.id}:${remindedAt}`,
    });
  }

  /**
   * enrollment.removed: the removed enrollment's request, while still pending, is withdrawn unless
   * the student still needs it: another active enrollment of theirs requires the same waiver and
   * has no request of its own (each enrollment normally gets its own, so that one stays and this one
   * goes). A signed or expired request is left as it is. Then the provider's submission is archived
   * by a queue job, best effort. Idempotent.
   */
  async withdrawForRemovedEnrollment(input: { organizationId: string; studentId: string; enrollmentId: string }): Promise<boolean> {
    const em = this.em.fork();
    const submission = await em.findOne(WaiverSubmission, { organizationId: input.organizationId, enrollmentId: input.enrollmentId });
    if (!submission || submission.status !== 'pending') return false;
    if (!submission.withdrawnAt) {
      const others = await this.enrollments.activeRequiringWaiver(input.organizationId, submission.studentId ?? input.studentId, submission.templateId);
      if (others.length) {
        const covered = await em.execute<{ enrollment_id: string }[]>(
          `select enrollment_id from waiver_submission
            where organization_id = ? and template_id = ? and withdrawn_at is null and enrollment_id in (${others.map(() => '?').join(', ')})`,
          [input.organizationId, submission.templateId, ...others],
        );
        const own = new Set(covered.map((r) => r.enrollment_id));
        if (others.some((id) => !own.has(id))) return false;
      }
      const handedTo = await this.handOver(submission.id);
      if (handedTo === false) return false;
      if (handedTo) {
        this.logger.log(`Waiver request ${submission.id} withdrawn: enrollment ${input.enrollmentId} was removed; its sign link goes on for ${handedTo}`);
        return true;
      }
      this.logger.log(`Waiver request ${submission.id} withdrawn: enrollment ${input.enrollmentId} was removed`);
    }
    // A repeated announcement queues the archive again (the job id deduplicates).
    await this.queueArchive(submission.id);
    return true;
  }

  /**
   * Withdraws a pending request whose seat was removed. When other seats share it (issue 25), the
   * oldest takes it over (the provider's submission, the sign link the student has, the reminder
   * time) and the rest share that one: nothing is archived and the student is not asked again.
   * Answers the seat's submission that took over, null when none did (the caller archives), or
   * false when the request was not pending any more (signed meanwhile: it stays).
   */
  private async handOver(submissionId: string): Promise<string | null | false> {
    return this.em.fork().transactional(async (tx) => {
      // One statement decides: a signature recorded meanwhile keeps it.
      const [request] = await tx.execute<{ sign_url: string | null; provider_submission_id: string | null; provider_submitter_id: string | null; last_reminded_at: Date | null }[]>(
        `select sign_url, provider_submission_id, provider_submitter_id, last_reminded_at from waiver_submission
          where id = ? and status = 'pending' and withdrawn_at is null for update`,
        [submissionId],
      );
      if (!request) return false;
      const [heir] = await tx.execute<{ id: string }[]>(
        `select id from waiver_submission where shares_request_of = ? and status = 'pending' and withdrawn_at is null
          order by created_at, id limit 1 for update`,
        [submissionId],
      );
      // Handed over, the withdrawn row keeps no provider submission (one row per provider submission):
      // the webhook and the demo page find the heir's.
      await tx.execute(
        `update waiver_submission set withdrawn_at = now()${heir ? ', provider_submission_id = null, provider_submitter_id = null' : ''} where id = ?`,
        [submissionId],
      );
      if (heir) {
        await tx.execute(
          `update waiver_submission set shares_request_of = null, sign_url = ?, provider_submission_id = ?, provider_submitter_id = ?, last_reminded_at = ?
            where id = ?`,
          [request.sign_url, request.provider_submission_id, request.provider_submitter_id, request.last_reminded_at, heir.id],
        );
        await tx.execute(`update waiver_submission set shares_request_of = ? where shares_request_of = ? and id <> ?`, [heir.id, submissionId, heir.id]);
      }
      // Not requested yet (its job found it withdrawn): the heir makes the request and mails the link.
      if (heir && !request.sign_url) {
        await this.queue.add<WaiverJob>(WAIVER_QUEUE, SEND_JOB, { submissionId: heir.id }, { jobId: `waiver-send-${heir.id}` });
      }
      return heir?.id ?? null;
    });
  }

  private async queueArchive(submissionId: string): Promise<void> {
    await this.queue.add<WaiverJob>(WAIVER_QUEUE, ARCHIVE_JOB, { submissionId }, { jobId: `waiver-archive-${submissionId}` });
  }

  /**
   * The archive job: the provider's submission of a withdrawn request is archived so its sign link
   * stops working. Best effort: a provider failure is logged (the job retries) and never undoes the
   * withdrawal.
   */
  async archiveAtProvider(submissionId: string): Promise<void> {
    const submission = await this.em.fork().findOne(WaiverSubmission, submissionId);
    if (!submission?.withdrawnAt || submission.status === 'completed' || !submission.providerSubmissionId) return;
    if (submission.provider !== this.esign.provider) return; // made through another provider: not reachable from here
    try {
      await this.esign.archiveSubmission(submission.providerSubmissionId);
    } catch (error) {
      this.logger.warn(`Archiving ${submission.provider} submission ${submission.providerSubmissionId} (waiver request ${submission.id}) failed: ${(error as Error).message}`);
      throw error;
    }
  }

  async requireSubmission(ctx: RequestContext, id: string): Promise<WaiverSubmission> {
    const submission = await this.em.fork().findOne(WaiverSubmission, { id, organizationId: ctx.organizationId });
    if (!submission) throw notFound(M.submissionNotFound);
    return submission;
  }

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
    const { template } = await this.parties(submission);
    return { submission, template };
  }

  /**
   * The Waivers page: every template of the organization (by name, at most 1000) with its
   * submissions counted by state (withdrawn ones are not counted, nor a store checkout's signing
   * that no checkout took: it is nobody's yet). The templates are the catalog's, read here in one join.
   */
  async summary(ctx: RequestContext): Promise<WaiverSummary[]> {
    const rows = await this.em.execute<
      { id: string; name: string; created_at: Date; document_url: string | null; pending: string; completed: string; expired: string }[]
    >(
      `select t.id, t.name, t.created_at, t.document_url,
              count(s.id) filter (where s.status = 'pending') as pending,
              count(s.id) filter (where s.status = 'completed') as completed,
              count(s.id) filter (where s.status = 'expired') as expired
         from waiver_template t
         left join waiver_submission s on s.template_id = t.id and s.organization_id = t.organization_id and s.withdrawn_at is null and s.student_id is not null
        where t.organization_id = ?
        group by t.id
        order by t.name, t.id
        limit 1000`,
      [ctx.organizationId],
    );
    return rows.map((r) => ({
      template_id: r.id,
      name: r.name,
      created_at: new Date(r.created_at).toISOString(),
      document_url: r.document_url,
      pending: Number(r.pending),
      completed: Number(r.completed),
      expired: Number(r.expired),
    }));
  }

  /** The student drawer's waivers (spec 001 §3 Waiver submission), newest first; withdrawn ones are not listed. */
  async forStudent(ctx: RequestContext, studentId: string): Promise<WaiverSubmissionOut[]> {
    const rows = await this.em.execute<
      { id: string; status: WaiverSubmissionOut['status']; completed_at: Date | null; created_at: Date; submission_url: string | null; sign_url: string | null; name: string }[]
    >(
      // The template's name is the catalog's; read here in one join, written only by the catalog.
      `select s.id, s.status, s.completed_at, s.created_at, s.submission_url, s.sign_url, t.name
         from waiver_submission s join waiver_template t on t.id = s.template_id
        where s.organization_id = ? and s.student_id = ? and s.withdrawn_at is null
        order by s.created_at desc, s.id desc limit 100`,
      [ctx.organizationId, studentId],
    );
    return rows.map((r) => ({
      submission_id: r.id,
      status: r.status,
      completed_at: r.completed_at ? new Date(r.completed_at).toISOString() : null,
      created_at: new Date(r.created_at).toISOString(),
      submission_url: r.submission_url,
      sign_url: r.sign_url,
      DocusealTemplate: { name: r.name },
    }));
  }
}
