import { MikroORM } from '@mikro-orm/core';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { z } from 'zod';
import { assertOutsideTransaction } from '../../common/outside-calls';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig, isMailbox } from '../../config/config.schema';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { MailTransport, OutboxMailTransport, SmtpMailTransport } from './mail-transport';

export const MAIL_QUEUE = 'mail';
export const SEND_MAIL_JOB = 'send-mail';
const PRUNE_SENT_JOB = 'prune-mail-sent';
/** How long a sent mail's key is remembered: longer than anything may re-run its occasion. */
const MAIL_SENT_KEEP_DAYS = 400;
/** Retries of a failed send: 3 s, 6 s, 12 s, ... about six minutes in all. */
const MAIL_ATTEMPTS = 8;
const MAIL_BACKOFF_MS = 3000;

const oneLineString = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !/[\r\n]/.test(v), 'expected one line');

/** A message to send. `dedupeKey` names the occasion (for example `payment-link:<orderId>`). */
export const mailMessageSchema = z
  .object({
    to: oneLineString(320).refine(isMailbox, 'expected an email address, or a name and <address>'),
    subject: oneLineString(300),
    text: z.string().min(1).max(100_000),
    html: z.string().max(500_000).optional(),
    /** Small text files sent with it (a booking's calendar file). */
    attachments: z
      .array(
        z.object({
          filename: oneLineString(100),
          contentType: oneLineString(100),
          content: z.string().max(100_000),
        }),
      )
      .max(3)
      .optional(),
    /** Same key, same mail: enqueuing it again while the first is known (retried request, redelivered webhook) sends once. */
    dedupeKey: oneLineString(200),
  })
  .strict();

export type MailMessage = z.input<typeof mailMessageSchema>;
type MailJob = Omit<z.output<typeof mailMessageSchema>, 'dedupeKey'>;

/**
 * Outgoing email. Callers enqueue; the queue's worker sends, with retries, so a request never waits
 * on (or fails with) the mail server. Without SMTP_URL each message is written as an .eml file to
 * MAIL_OUTBOX_DIR instead.
 *
 * Once per occasion (`dedupeKey`), kept in our database, not by the queue: BullMQ forgets a
 * completed job after 1,000 jobs or 24 hours and the in-process queue as soon as it completes, so
 * the job id alone let a handler re-run later (an outbox retry, a redelivered webhook) send again.
 * Table `mail_sent` holds the hash of each key whose mail went out (the job id's 40 hex
 * characters), written by the worker right after the server accepted the message. The worker checks
 * it before sending and sends nothing for a key found there; enqueue checks it too and queues nothing
 * then. A key is recorded only once its mail is sent, so a mail is sent at least once whatever
 * crashes: a job lost before sending leaves no row, and the occasion enqueued again (its handler's
 * retry) sends it. The one window left is between the server's acceptance and the row's insert (a
 * crash there sends the mail again, with the same Message-ID). The body is never stored (it may
 * carry a claim link or a gift card code). Two jobs of one key never run at once: the queue keeps
 * one job per id until it completes. Rows older than MAIL_SENT_KEEP_DAYS are deleted (a daily job).
 */
@Injectable()
export class MailService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transport: MailTransport;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly orm: MikroORM,
  ) {
    this.transport = config.SMTP_URL ? new SmtpMailTransport(config.SMTP_URL) : new OutboxMailTransport(config.MAIL_OUTBOX_DIR);
  }

  onModuleInit(): void {
    this.queue.process(MAIL_QUEUE, async (job) => {
      if (job.name === SEND_MAIL_JOB) await this.send(job.id, job.data as MailJob);
      if (job.name === PRUNE_SENT_JOB) await this.pruneSent();
    });
    if (!this.config.RUN_WORKER) return;
    if (this.queue.runsWorkers)
      void this.queue
        .upsertScheduler(MAIL_QUEUE, PRUNE_SENT_JOB, PRUNE_SENT_JOB, {}, { everyMs: 24 * 3600_000, attempts: 3, backoffMs: 60_000 })
        .catch((error: Error) => this.logger.error(`The sent mails' pruning is not scheduled: ${error.message}`));
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

  /**
   * Queues a message and answers its job id; it is sent by the worker, not before this returns.
   * Nothing is queued when the mail of its key was sent already (mail_sent).
   */
  async enqueue(message: MailMessage): Promise<string> {
    const { dedupeKey, ...mail } = mailMessageSchema.parse(message);
    const keyHash = createHash('sha256').update(dedupeKey).digest('hex').slice(0, 40);
    const jobId = `mail-${keyHash}`;
    if (await this.wasSent(keyHash)) return jobId;
    await this.queue.add<MailJob>(MAIL_QUEUE, SEND_MAIL_JOB, mail, {
      jobId,
      attempts: MAIL_ATTEMPTS,
      backoffMs: MAIL_BACKOFF_MS,
    });
    return jobId;
  }

  private async send(jobId: string, mail: MailJob): Promise<void> {
    const keyHash = jobId.replace(/^mail-/, '');
    if (await this.wasSent(keyHash)) {
      this.logger.debug(`Mail ${jobId} was sent already: not again`);
      return;
    }
    const from = this.config.MAIL_FROM;
    const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'studio.local';
    // Test mode: the worker sends outside any transaction (common/outside-calls.ts).
    assertOutsideTransaction(`mail ${this.transport.kind} send`);
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
    // Sent: failing the job now would only send it again, so a failed record is logged, not thrown.
    await this.orm.em
      .getConnection()
      .execute(`insert into mail_sent (key_hash) values (?) on conflict (key_hash) do nothing`, [keyHash])
      .catch((error: Error) => this.logger.error(`Mail ${jobId} was sent but not recorded as sent: ${error.message}`));
    if (delivery.file) this.logger.log(`Mail written to ${this.shown(delivery.file)}`);
    else this.logger.debug(`Mail ${jobId} sent (${delivery.messageId})`);
  }

  private async wasSent(keyHash: string): Promise<boolean> {
    const rows = await this.orm.em.getConnection().execute<unknown[]>(`select 1 from mail_sent where key_hash = ?`, [keyHash]);
    return rows.length > 0;
  }

  private async pruneSent(): Promise<void> {
    await this.orm.em
      .getConnection()
      .execute(`delete from mail_sent where sent_at < ?`, [new Date(Date.now() - MAIL_SENT_KEEP_DAYS * 24 * 3600_000)]);
  }

  /** A path as the operator thinks of it: relative to the working folder when inside it. */
  private shown(path: string): string {
    const inside = relative(process.cwd(), path);
    return inside && !inside.startsWith('..') ? inside : path;
  }
}
