import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTransport } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type StreamTransport from 'nodemailer/lib/stream-transport';

/** Where a message went: the server's message id, or the file it was written to. */
export interface MailDelivery {
  messageId: string;
  file?: string;
}

/** The mail port: SMTP in real deployments, an outbox folder of .eml files when no server is set. */
export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  send(message: Mail.Options): Promise<MailDelivery>;
  close(): void;
}

/** Sends through the SMTP server of SMTP_URL (smtp:// with STARTTLS when offered, smtps:// for TLS). */
export class SmtpMailTransport implements MailTransport {
  readonly kind = 'smtp' as const;
  private readonly transporter;

  constructor(url: string) {
    const options: SMTPTransport.Options = {
      url,
      connectionTimeout: 10000,
      greetingTimeout: 10000,
      socketTimeout: 30000,
    };
    this.transporter = createTransport(options);
  }

  async send(message: Mail.Options): Promise<MailDelivery> {
    const info = await this.transporter.sendMail(message);
    if (info.rejected.length) throw new Error(`SMTP server refused ${info.rejected.length} recipient(s): ${info.response}`);
    return { messageId: info.messageId };
  }

  close(): void {
    this.transporter.close();
  }
}

/** File name of the time of writing, so that `ls` lists the outbox oldest first. */
export function outboxFileName(at: Date, unique = randomBytes(4).toString('hex')): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').replace('.', '-').replace('Z', '');
  return `${stamp}-${unique}.eml`;
}

/**
 * The embedded default, in the way of Django's file-based backend: each message is rendered by
 * nodemailer exactly as it would go over SMTP and written as one .eml file, which any mail client
 * opens. Files appear whole (written beside, then renamed).
 */
export class OutboxMailTransport implements MailTransport {
  readonly kind = 'outbox' as const;
  readonly dir: string;
  private readonly transporter;

  constructor(dir: string) {
    this.dir = resolve(dir);
    const options: StreamTransport.Options = { streamTransport: true, buffer: true, newline: 'windows' };
    this.transporter = createTransport(options);
  }

  async send(message: Mail.Options): Promise<MailDelivery> {
    const info = await this.transporter.sendMail(message);
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, outboxFileName(new Date()));
    const partial = `${file}.part`;
    await writeFile(partial, info.message as Buffer);
    await rename(partial, file);
    return { messageId: info.messageId, file };
  }

  close(): void {
    this.transporter.close();
  }
}
