import type { DocusealApi } from '@docuseal/api';
import { timingSafeEqual } from 'node:crypto';
import { EsignPort, EsignSubmissionCreated, EsignSubmissionInput, EsignTemplateInput, EsignWebhookEvent, EsignWebhookRefused } from '../esign.port';

/** The one signer role of a waiver template at DocuSeal. */
export const DOCUSEAL_ROLE = 'Student';
export const DOCUSEAL_SECRET_HEADER = 'x-docuseal-secret';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The waiver's text as a DocuSeal HTML template: the paragraphs, then the signer's name, date and signature fields. */
export function waiverHtml(text: string): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  return `${paragraphs}
<p>Name: <text-field name="Full name" role="${DOCUSEAL_ROLE}" required="true" style="width: 240px; height: 20px; display: inline-block;"></text-field></p>
<p>Date: <date-field name="Date" role="${DOCUSEAL_ROLE}" style="width: 120px; height: 20px; display: inline-block;"></date-field></p>
<p><signature-field name="Signature" role="${DOCUSEAL_ROLE}" required="true" style="width: 200px; height: 60px; display: inline-block;"></signature-field></p>`;
}

type Headers = Record<string, string | string[] | undefined>;
type WebhookBody = {
  event_type?: unknown;
  data?: {
    id?: unknown;
    submission_id?: unknown;
    completed_at?: unknown;
    combined_document_url?: unknown;
    documents?: { url?: unknown }[];
    submission?: { id?: unknown; combined_document_url?: unknown; url?: unknown };
  };
};

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
const idOf = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' && /^\d+$/.test(v) ? v : null);

/**
 * DocuSeal (https://www.docuseal.com/docs/api) through its official client `@docuseal/api`.
 * Templates are created from the waiver's PDF or text (HTML with field tags) on first use;
 * submissions are created without DocuSeal's own email (the app mails the sign link); a reminder
 * asks DocuSeal to send its signing request again; a withdrawn request is archived; the webhook (form.completed,
 * submission.completed, submission.expired) carries the secret configured in DocuSeal's webhook
 * settings as the X-Docuseal-Secret header.
 */
export class DocusealEsignAdapter extends EsignPort {
  readonly provider = 'docuseal' as const;

  constructor(
    private readonly client: DocusealApi,
    /** DOCUSEAL_URL: the API's address, from which the signing pages' origin is derived when DocuSeal gives no embed_src. */
    private readonly apiUrl: string,
    private readonly webhookSecret: string | undefined,
  ) {
    super();
  }

  async ensureTemplate(input: EsignTemplateInput): Promise<string> {
    const template = input.pdf
      ? await this.client.createTemplateFromPdf({
          name: input.name,
          external_id: input.externalId,
          documents: [
            {
              name: input.name,
              file: input.pdf.toString('base64'),
              fields: [{ name: 'Signature', role: DOCUSEAL_ROLE, type: 'signature', required: true, areas: [{ x: 0.1, y: 0.85, w: 0.35, h: 0.06, page: 1 }] }],
            },
          ],
        })
      : await this.client.createTemplateFromHtml({ name: input.name, external_id: input.externalId, html: waiverHtml(input.text || input.name) });
    return String(template.id);
  }

  async createSubmission(input: EsignSubmissionInput): Promise<EsignSubmissionCreated> {
    const created = await this.client.createSubmission({
      template_id: Number(input.providerTemplateId),
      send_email: false,
      submitters: [{ role: DOCUSEAL_ROLE, email: input.signerEmail, name: input.signerName, external_id: input.externalId }],
    });
    const submitters = Array.isArray(created) ? created : created.submitters;
    const submitter = submitters[0];
    if (!submitter) throw new Error('DocuSeal created a submission without a submitter');
    const embed = (submitter as { embed_src?: string }).embed_src;
    return {
      submissionId: String(submitter.submission_id ?? (created as { id?: number }).id),
      submitterId: String(submitter.id),
      signUrl: embed || `${this.signOrigin()}/s/${submitter.slug}`,
    };
  }

  async remind(submitterId: string): Promise<boolean> {
    await this.client.updateSubmitter(Number(submitterId), { send_email: true });
    return true;
  }

  /** DocuSeal archives the submission (DELETE /submissions/{id}); its signing page stops accepting signatures. */
  async archiveSubmission(submissionId: string): Promise<void> {
    await this.client.archiveSubmission(Number(submissionId));
  }

  parseWebhook(headers: Headers, body: unknown): EsignWebhookEvent {
    const given = headers[DOCUSEAL_SECRET_HEADER];
    if (!this.webhookSecret || typeof given !== 'string') throw new EsignWebhookRefused('No webhook secret');
    const a = Buffer.from(given);
    const b = Buffer.from(this.webhookSecret);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new EsignWebhookRefused('Wrong webhook secret');
    const { event_type: type, data } = (body ?? {}) as WebhookBody;
    if (!data) return { type: 'ignored' };
    if (type === 'form.completed') {
      const submissionId = idOf(data.submission_id) ?? idOf(data.submission?.id);
      if (!submissionId) return { type: 'ignored' };
      return {
        type: 'completed',
        submissionId,
        completedAt: this.date(data.completed_at),
        documentUrl: str(data.submission?.combined_document_url) ?? str(data.documents?.[0]?.url) ?? str(data.submission?.url),
      };
    }
    if (type === 'submission.completed') {
      const submissionId = idOf(data.id);
      if (!submissionId) return { type: 'ignored' };
      return { type: 'completed', submissionId, completedAt: this.date(data.completed_at), documentUrl: str(data.combined_document_url) };
    }
    if (type === 'submission.expired') {
      const submissionId = idOf(data.id);
      return submissionId ? { type: 'expired', submissionId } : { type: 'ignored' };
    }
    return { type: 'ignored' };
  }

  private date(value: unknown): Date {
    const parsed = typeof value === 'string' ? new Date(value) : null;
    return parsed && !Number.isNaN(parsed.getTime()) ? parsed : new Date();
  }

  /** https://api.docuseal.com → https://docuseal.com; https://sign.example.com/api → https://sign.example.com. */
  private signOrigin(): string {
    const url = new URL(this.apiUrl);
    const path = url.pathname.replace(/\/+$/, '').replace(/\/api$/, '');
    const host = url.host.startsWith('api.') ? url.host.slice(4) : url.host;
    return `${url.protocol}//${host}${path}`;
  }
}
