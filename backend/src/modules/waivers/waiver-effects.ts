import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { crashPoint } from '../../common/crash-point';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { MailService } from '../notifications/mail.service';
import { EsignPort } from './esign.port';
import { WaiverEvents } from './waiver-events';
import { WaiverProvider } from './waiver-provider';
import { WaiverRemindersService } from './waiver-reminders.service';
import { WaiverSubmission } from './waiver-submission.entity';

/** The queue the waiver jobs used before they went through the outbox (issue 33): drained, never added to. */
const LEGACY_WAIVER_QUEUE = 'waivers';

/**
 * What follows a committed change of a signature request (issue 33): the outbox handlers of
 * WaiverEvents. waiver.requested makes the request at the provider and mails the sign link,
 * waiver.reminded reminds (WaiverRemindersService), waiver.withdrawn archives the provider's
 * submission. Each runs at least once and is idempotent: the request is kept once, each mail has its
 * dedupe key (MailService sends a key once), archiving twice is harmless.
 */
@Injectable()
export class WaiverEffects implements OnModuleInit {
  private readonly logger = new Logger('Waivers');

  constructor(
    private readonly em: EntityManager,
    private readonly esign: EsignPort,
    private readonly events: WaiverEvents,
    private readonly provider: WaiverProvider,
    private readonly reminders: WaiverRemindersService,
    private readonly mail: MailService,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  onModuleInit(): void {
    this.events.on('waiver.requested', 'waivers.sign-mail', (e) => this.send(e.submissionId));
    this.events.on('waiver.reminded', 'waivers.reminder', (e) => this.reminders.sendReminder(e.submissionId, e.remindedAt));
    this.events.on('waiver.withdrawn', 'waivers.archive', (e) => this.archiveAtProvider(e.submissionId));
    // Jobs queued by the release before the outbox, still in Redis at the upgrade: carried out the same way.
    this.queue.process(LEGACY_WAIVER_QUEUE, async (job) => {
      const data = job.data as { submissionId: string; remindedAt?: string };
      await OrmContext.create(this.em, async () => {
        if (job.name === 'send-waiver') await this.send(data.submissionId);
        if (job.name === 'remind-waiver') await this.reminders.sendReminder(data.submissionId, data.remindedAt ?? '');
        if (job.name === 'archive-waiver') await this.archiveAtProvider(data.submissionId);
      });
    });
  }

  /** waiver.requested: the provider's template and submission (once), then the mail with the sign link (once). */
  async send(submissionId: string): Promise<void> {
    const submission = await this.provider.ensureRequested(submissionId);
    if (!submission || submission.status !== 'pending' || submission.withdrawnAt || !submission.signUrl) return;
    crashPoint('waiver.before-mail');
    const { signer, template } = await this.provider.parties(submission);
    await this.mail.enqueue({
      to: signer.email,
      subject: `Please sign: ${template.name}`,
      text: `Hello ${signer.firstName},\n\nBefore your class, please read and sign "${template.name}":\n${submission.signUrl}\n\nThank you.`,
      dedupeKey: `waiver-sign:${submission.id}`,
    });
  }

  /**
   * waiver.withdrawn: the provider's submission of a withdrawn request is archived so its sign link
   * stops working. Best effort: a provider failure is logged (the outbox retries) and never undoes
   * the withdrawal.
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
}
