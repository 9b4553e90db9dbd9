import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DOCUMENT_URL_PATTERN } from '@studio/contracts';
import { RequestContext } from '../../common/request-context';
import { MediaService } from '../catalog/media.service';
import { ReferenceDataService } from '../catalog/reference-data.service';
import { StudentsService } from '../students/students.service';
import { EsignPort } from './esign.port';
import { WaiverEvents } from './waiver-events';
import { EsignTemplate, WaiverSubmission } from './waiver-submission.entity';

/** Work outside a request (outbox handlers, the seed): the organization is the submission's own. */
export const systemCtx = (organizationId: string): RequestContext => ({ organizationId, userId: '', sessionId: '', role: 'owner' });

/**
 * A signature request at the e-signature provider: made once per request of its own (the provider's
 * template first, created on first use), the first answer kept, and who signs what (the student, or
 * the email and name typed in the store's checkout; the waiver template). No database transaction is
 * open while the provider is called.
 */
@Injectable()
export class WaiverProvider {
  constructor(
    private readonly em: EntityManager,
    private readonly esign: EsignPort,
    private readonly events: WaiverEvents,
    private readonly students: StudentsService,
    private readonly reference: ReferenceDataService,
    private readonly media: MediaService,
  ) {}

  get provider() {
    return this.esign.provider;
  }

  /** Makes the signature request at the provider unless it was made; answers the submission as stored. */
  async ensureRequested(submissionId: string): Promise<WaiverSubmission | null> {
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
    await em.transactional(async (tx) => {
      // Only the first request is kept (a retried handler after a lost answer finds it stored).
      const [kept] = await tx.execute<{ status: string; withdrawn_at: Date | null }[]>(
        `update waiver_submission set provider_submission_id = ?, provider_submitter_id = ?, sign_url = ? where id = ? and sign_url is null
         returning status, withdrawn_at`,
        [created.submissionId, created.submitterId, created.signUrl, submission.id],
      );
      // The seats sharing this request show its sign link too.
      await tx.execute(
        `update waiver_submission s set sign_url = r.sign_url
           from waiver_submission r
          where r.id = ? and s.shares_request_of = r.id and s.sign_url is null and r.sign_url is not null`,
        [submission.id],
      );
      // Withdrawn while the request was being made: the withdrawal saw no provider submission to
      // archive, so this commit announces it (the row's lock orders it after the withdrawal's).
      if (kept?.withdrawn_at && kept.status === 'pending') {
        await this.events.publish(tx, { type: 'waiver.withdrawn', organizationId: submission.organizationId, submissionId: submission.id });
      }
    });
    return em.findOne(WaiverSubmission, submissionId, { refresh: true });
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
  async parties(submission: WaiverSubmission) {
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
}
