import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { SubmissionStatus } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import type { EsignProviderName } from './esign.port';

/**
 * One student's signature request for one waiver template, usually for one enrollment (table
 * waiver_submission). The student, enrollment and template are other modules' rows, referred to by
 * id only. A request started in the store's checkout has no student until that checkout commits:
 * it names the email and name typed there (checkoutEmail, checkoutName). Completion is recorded
 * once: the time, and for the demo signing page the typed name and the signer's address. A pending
 * request whose enrollment was removed may be withdrawn (withdrawnAt).
 */
@Entity({ tableName: 'waiver_submission' })
export class WaiverSubmission {
  [OptionalProps]?:
    | 'status'
    | 'enrollmentId'
    | 'providerSubmissionId'
    | 'providerSubmitterId'
    | 'signUrl'
    | 'submissionUrl'
    | 'signerName'
    | 'signerIp'
    | 'createdAt'
    | 'completedAt'
    | 'lastRemindedAt'
    | 'withdrawnAt'
    | 'checkoutTokenHash'
    | 'sharesRequestOf'
    | 'studentId'
    | 'checkoutEmail'
    | 'checkoutName';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  /** The student; null for a store checkout's signing whose checkout has not committed (checkoutEmail says whose). */
  @Property({ type: 'uuid', nullable: true })
  studentId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  enrollmentId?: string | null;

  @Property({ type: 'uuid' })
  templateId!: string;

  @Property({ type: 'text' })
  status: SubmissionStatus = 'pending';

  @Property({ type: 'text' })
  provider!: EsignProviderName;

  @Property({ type: 'text', nullable: true })
  providerSubmissionId?: string | null;

  @Property({ type: 'text', nullable: true })
  providerSubmitterId?: string | null;

  /** Where the student signs; set once the request is made at the provider. */
  @Property({ type: 'text', nullable: true })
  signUrl?: string | null;

  /** The signed document; set on completion. */
  @Property({ type: 'text', nullable: true })
  submissionUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  signerName?: string | null;

  @Property({ type: 'text', nullable: true })
  signerIp?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastRemindedAt?: Date | null;

  /**
   * Set when a pending request was withdrawn (its enrollment was removed and no other seat of the
   * student needs it): hidden from the student's waivers, no reminder, no signing. The status is kept.
   */
  @Property({ type: 'timestamptz', nullable: true })
  withdrawnAt?: Date | null;

  /**
   * A request made in the store's checkout (before payment, no enrollment yet): the SHA-256 of the
   * secret token the buyer's page holds and sends with the checkout. Null otherwise.
   */
  @Property({ type: 'text', nullable: true })
  checkoutTokenHash?: string | null;

  /**
   * The email typed in the store's checkout that started this request (lowercased), and the name
   * typed with it (the signer's at the provider). Only a checkout with this email may use the
   * signature, and it then becomes that checkout's student's. Null for other requests.
   */
  @Property({ type: 'text', nullable: true })
  checkoutEmail?: string | null;

  @Property({ type: 'text', nullable: true })
  checkoutName?: string | null;

  /**
   * The request this seat's shares (issue 25): the student already had a pending request for this
   * waiver, so no second one was made and no second mail sent; its sign link is that one's, and
   * signing it signs this seat too. Null for a request of its own.
   */
  @Property({ type: 'uuid', nullable: true })
  sharesRequestOf?: string | null;
}

/** A waiver template's counterpart at a provider (created on first use). */
@Entity({ tableName: 'esign_template' })
export class EsignTemplate {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  templateId!: string;

  @PrimaryKey({ type: 'text' })
  provider!: EsignProviderName;

  @Property({ type: 'text' })
  providerTemplateId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
