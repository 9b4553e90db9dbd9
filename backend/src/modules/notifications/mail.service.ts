import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { z } from 'zod';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig, isMailbox } from '../../config/config.schema';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { MailTransport, OutboxMailTransport, SmtpMailTransport } from './mail-transport';

export const MAIL_QUEUE = 'mail';
const SEND_MAIL_JOB = 'send-mail';
/** Retries of a failed send: 3 s, 6 s, 12 s, ... about six minutes in all. */
const MAIL_ATTEMPTS = 8;
const MAIL_BACKOFF_MS = 3000;

const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !/[\r\n]/.test(v), 'expected one line');

/** A message to send. `dedupeKey` names the occasion (for example `payment-link:<orderId>`). */
export const mailMessageSchema = z
  .object({
    to: oneLine(320).refine(isMailbox, 'expected an email address, or a name and <address>'),
    subject: oneLine(300),
    text: z.string().min(1).max(100_000),
    html: z.string().max(500_000).optional(),
    /** Small text files sent with it (a booking's calendar file). */
    attachments: z
      .array(
        z.object({
          filename: oneLine(100),
          contentType: oneLine(100),
          content: z.string().max(100_000),
        }),
      )
      .max(3)
      .optional(),
    /** Same key, same mail: enqueuing it again while the first is known (retried request, redelivered webhook) sends once. */
    dedupeKey: oneLine(200),
  })
  .strict();

export type MailMessage = z.input<typeof mailMessageSchema>;
type MailJob = Omit<z.output<typeof mailMessageSchema>, 'dedupeKey'>;

/**
 * Outgoing email. Callers enqueue; the queue's worker sends, with retries, so a request never waits
 * on (or fails with) the mail server. Without SMTP_URL each message is written as an .eml file to
 * MAIL_OUTBOX_DIR instead.
 */
@Injectable()
export class MailService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transport: MailTransport;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.transport = config.SMTP_URL ? new SmtpMailTransport(config.SMTP_URL) : new OutboxMailTransport(config.MAIL_OUTBOX_DIR);
  }

  onModuleInit(): void {
    this.queue.process(MAIL_QUEUE, async (job) => {
      if (job.name === SEND_MAIL_JOB) await this.send(job.id, job.data as MailJob);
    });
    if (!this.config.RUN_WORKER) return;
    if (this.transport instanceof OutboxMailTransport) {
      this.logger.log(`Mail written to ${this.shown(this.transport.dir)}/ (no SMTP_URL set)`);
    } else if (this.config.SMTP_URL) {
      // Host and port only: the URL may carry the password.
      const { protocol, host } = new URL(this.config.SMTP_URL);
      this.logger.log(`Mail sent through ${protocol}//${host}`);
    }
  }

  onModuleDestroy(): void {
    this.transport.close();
  }

  /** Queues a message and answers its job id; it is sent by the worker, not before this returns. */
  async enqueue(message: MailMessage): Promise<string> {
    const { dedupeKey, ...mail } = mailMessageSchema.parse(message);
    const jobId = `mail-${createHash('sha256').update(dedupeKey).digest('hex').slice(0, 40)}`;
    await this.queue.add<MailJob>(MAIL_QUEUE, SEND_MAIL_JOB, mail, {
      jobId,
      attempts: MAIL_ATTEMPTS,
      backoffMs: MAIL_BACKOFF_MS,
    });
    return jobId;
  }

  private async send(jobId: string, mail: MailJob): Promise<void> {
    const from = this.config.MAIL_FROM;
    const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'studio.local';
    const delivery = await this.transport.send({
      from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments,
      // One Message-ID per job, so a retry after a lost answer is recognisably the same mail.
      messageId: `<${jobId}@${domain}>`,
    });
    if (delivery.file) this.logger.log(`Mail written to ${this.shown(delivery.file)}`);
    else this.logger.debug(`Mail ${jobId} sent (${delivery.messageId})`);
  }

  /** A path as the operator thinks of it: relative to the working folder when inside it. */
  private shown(path: string): string {
    const inside = relative(process.cwd(), path);
    return inside && !inside.startsWith('..') ? inside : path;
  }
}
