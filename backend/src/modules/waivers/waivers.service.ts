import { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { crashPoint } from '../../common/crash-point';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { WaiverCompletionService } from './waiver-completion.service';
import { WaiverEvents } from './waiver-events';
import { WaiverProvider } from './waiver-provider';
import { WaiverSubmission } from './waiver-submission.entity';

const checkoutTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Waiver requests and their lifecycle: requested when a student enrolls in a course that requires a
 * waiver (the request and its announcement, waiver.requested, commit together: the sign link is
 * mailed by its outbox handler, WaiverEffects), or signed inside the store's checkout (keyed by the
 * email typed there until the checkout takes it for its student), withdrawn when the seat is
 * removed (waiver.withdrawn: archived at the provider). Reminders are WaiverRemindersService's,
 * completion and the provider's events WaiverCompletionService's, the admin's reads WaiverReadModels'.
 */
@Injectable()
export class WaiversService {
  private readonly logger = new Logger('Waivers');

  constructor(
    private readonly em: EntityManager,
    private readonly provider: WaiverProvider,
    private readonly events: WaiverEvents,
    private readonly completion: WaiverCompletionService,
    private readonly enrollments: EnrollmentsService,
  ) {}

  /**
   * A pending submission for the enrollment (once, however often announced), and in the same
   * transaction its announcement (waiver.requested), whose handler requests it at the provider and
   * mails the sign link.
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
            [input.organizationId, input.studentId, input.templateId, this.provider.provider],
          );
      const [row] = await tx.execute<{ id: string }[]>(
        `insert into waiver_submission (id, organization_id, student_id, enrollment_id, template_id, status, provider, created_at, shares_request_of, sign_url)
         values (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)
         on conflict (enrollment_id) where enrollment_id is not null do nothing
         returning id`,
        [randomUUID(), input.organizationId, input.studentId, input.enrollmentId, input.templateId, this.provider.provider, input.createdAt ?? new Date(), pending?.id ?? null, pending?.sign_url ?? null],
      );
      // A request of its own: it is made and mailed once this commits (a shared one has its link).
      if (row && !pending) await this.events.publish(tx, { type: 'waiver.requested', organizationId: input.organizationId, submissionId: row.id });
      return row?.id ?? null;
    });
    crashPoint('waiver.after-request');
    const submission = inserted
      ? await em.findOneOrFail(WaiverSubmission, inserted)
      : await em.findOneOrFail(WaiverSubmission, { enrollmentId: input.enrollmentId });
    // Announced again on a repeated announcement of the seat while not made yet: a request written
    // before its announcement went through the outbox (issue 33) is made all the same. The handler is
    // idempotent, and its rows of one request run in order.
    if (!inserted && submission.status === 'pending' && !submission.signUrl && !submission.sharesRequestOf && !submission.withdrawnAt) {
      await this.events.publish(em, { type: 'waiver.requested', organizationId: submission.organizationId, submissionId: submission.id });
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
      provider: this.provider.provider,
      checkoutEmail: input.signer.email.trim().toLowerCase(),
      checkoutName: input.signer.name.trim().slice(0, 201),
      checkoutTokenHash: checkoutTokenHash(token),
    });
    await em.flush();
    const requested = await this.provider.ensureRequested(submission.id);
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
      provider: this.provider.provider,
      createdAt: input.createdAt,
    });
    await em.flush();
    const requested = await this.provider.ensureRequested(submission.id);
    if (input.signed) {
      await this.completion.complete(submission.id, { completedAt: input.signed.at, submissionUrl: requested?.signUrl ?? null, signerName: input.signed.name, signerIp: '203.0.113.7' });
    }
  }

  /**
   * enrollment.removed: the removed enrollment's request, while still pending, is withdrawn unless
   * the student still needs it: another active enrollment of theirs requires the same waiver and
   * has no request of its own (each enrollment normally gets its own, so that one stays and this one
   * goes). A signed or expired request is left as it is. The withdrawal announces waiver.withdrawn in
   * its transaction: the provider's submission is then archived, best effort. Idempotent.
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
      const handedTo = await this.handOver(submission);
      if (handedTo === false) return false;
      if (handedTo) {
        this.logger.log(`Waiver request ${submission.id} withdrawn: enrollment ${input.enrollmentId} was removed; its sign link goes on for ${handedTo}`);
        return true;
      }
      this.logger.log(`Waiver request ${submission.id} withdrawn: enrollment ${input.enrollmentId} was removed`);
      return true;
    }
    // A repeated announcement of a removal withdrawn before (its archive was announced with it)
    // announces the archive again: harmless (archiving twice is), and a request withdrawn before its
    // archive went through the outbox (issue 33) is archived all the same.
    await this.events.publish(em, { type: 'waiver.withdrawn', organizationId: submission.organizationId, submissionId: submission.id });
    return true;
  }

  /**
   * Withdraws a pending request whose seat was removed. When other seats share it (issue 25), the
   * oldest takes it over (the provider's submission, the sign link the student has, the reminder
   * time) and the rest share that one: nothing is archived and the student is not asked again.
   * Answers the seat's submission that took over, null when none did (then the archive of the
   * provider's submission is announced in the same transaction: waiver.withdrawn), or false when the request was not pending any more (signed meanwhile: it stays).
   */
  private async handOver(submission: WaiverSubmission): Promise<string | null | false> {
    const submissionId = submission.id;
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
      const organizationId = submission.organizationId;
      // Not requested yet (its handler found it withdrawn): the heir makes the request and mails the link.
      if (heir && !request.sign_url) await this.events.publish(tx, { type: 'waiver.requested', organizationId, submissionId: heir.id });
      if (!heir) await this.events.publish(tx, { type: 'waiver.withdrawn', organizationId, submissionId });
      return heir?.id ?? null;
    });
  }
}
