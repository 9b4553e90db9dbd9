/**
 * The e-signature service, as the waivers module needs it: templates (a waiver's document),
 * submissions with their sign URLs, reminders, withdrawal (archive), and the completion webhook checked by its secret.
 * Two adapters: the built-in demo signing page (the default, no keys, no network) and DocuSeal
 * (DOCUSEAL_URL and DOCUSEAL_API_KEY). The class is also the Nest injection token.
 *
 * Ids are the provider's, stored as opaque strings.
 */

export type EsignProviderName = 'demo' | 'docuseal';

/** The document of a waiver: the text typed on the page, or an uploaded PDF (its bytes). */
export interface EsignTemplateInput {
  /** Our waiver template id: the provider keeps it as a reference (DocuSeal: external_id). */
  externalId: string;
  name: string;
  /** The waiver's text (used when there is no PDF). */
  text: string;
  pdf?: Buffer | null;
}

export interface EsignSubmissionInput {
  /** The provider's template, as answered by ensureTemplate. */
  providerTemplateId: string;
  /** Our submission id: the provider keeps it as a reference (DocuSeal: submitter external_id). */
  externalId: string;
  signerEmail: string;
  signerName: string;
}

export interface EsignSubmissionCreated {
  /** The provider's submission. */
  submissionId: string;
  /** The signer's record at the provider (DocuSeal: the submitter; reminders go to it). */
  submitterId: string;
  /** The page where the student signs. */
  signUrl: string;
}

/** What the completion webhook says, once its secret is checked. */
export type EsignWebhookEvent =
  | { type: 'completed'; submissionId: string; completedAt: Date; documentUrl: string | null }
  | { type: 'expired'; submissionId: string }
  | { type: 'ignored' };

/** The webhook does not carry the configured secret: refused, nothing changes. */
export class EsignWebhookRefused extends Error {}

export abstract class EsignPort {
  abstract readonly provider: EsignProviderName;

  /**
   * The provider's template for a waiver, created on first use (DocuSeal: from the PDF, or from the
   * text as HTML). Answers the provider's template id.
   */
  abstract ensureTemplate(input: EsignTemplateInput): Promise<string>;

  /** Creates a signature request for one signer and answers its sign URL; the provider sends no mail (we do). */
  abstract createSubmission(input: EsignSubmissionInput): Promise<EsignSubmissionCreated>;

  /**
   * Reminds the signer. Answers true when the provider itself sent the reminder email (DocuSeal
   * re-sends its signing request), false when the caller must mail the sign link.
   */
  abstract remind(submitterId: string): Promise<boolean>;

  /**
   * Withdraws a signature request at the provider so its sign link stops working (DocuSeal archives
   * the submission: DELETE /submissions/{id}). Archiving one already archived is harmless.
   */
  abstract archiveSubmission(submissionId: string): Promise<void>;

  /**
   * Checks the webhook's secret (throws EsignWebhookRefused) and reads what happened. The caller
   * applies it idempotently.
   */
  abstract parseWebhook(headers: Record<string, string | string[] | undefined>, body: unknown): EsignWebhookEvent;
}
