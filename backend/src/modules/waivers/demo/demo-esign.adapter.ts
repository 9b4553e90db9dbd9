import { randomBytes } from 'node:crypto';
import { EsignPort, EsignSubmissionCreated, EsignSubmissionInput, EsignTemplateInput, EsignWebhookEvent, EsignWebhookRefused } from '../esign.port';

export const demoSignPath = (submissionId: string) => `/api/sign/demo/${submissionId}`;
/** dsub_ followed by 32 hex digits: the demo submission id, also the unguessable part of its page's address. */
export const DEMO_SUBMISSION_ID = /^dsub_[a-f0-9]{32}$/;

/**
 * The built-in signing service, the default when DocuSeal is not configured: the sign link opens a
 * page of this app (labelled "Demo signing page") where the student reads the waiver text and signs
 * by typing their name. Its submissions are the waiver_submission rows themselves: nothing leaves the
 * machine, and it has no webhook (its page records completion directly).
 */
export class DemoEsignAdapter extends EsignPort {
  readonly provider = 'demo' as const;

  constructor(private readonly baseUrl: string) {
    super();
  }

  async ensureTemplate(input: EsignTemplateInput): Promise<string> {
    return input.externalId;
  }

  async createSubmission(_input: EsignSubmissionInput): Promise<EsignSubmissionCreated> {
    const id = `dsub_${randomBytes(16).toString('hex')}`;
    return { submissionId: id, submitterId: id, signUrl: this.baseUrl + demoSignPath(id) };
  }

  /** The demo service sends no mail: the caller mails the sign link again. */
  async remind(): Promise<boolean> {
    return false;
  }

  /** Nothing to do: the demo submissions are the rows themselves, and the signing page refuses a withdrawn one. */
  async archiveSubmission(): Promise<void> {}

  parseWebhook(): EsignWebhookEvent {
    throw new EsignWebhookRefused('The demo signing service has no webhook');
  }
}
