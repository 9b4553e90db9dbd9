import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';

export const NOTIFICATIONS_QUEUE = 'notifications';
const CHAT_ALERT_JOB = 'chat-alert';

interface ChatAlertJob {
  channel: 'general' | 'new-course';
  message: string;
  organizationId: string;
}

/**
 * Posts alerts to the chat webhook (Slack's incoming-webhook protocol) from the worker, with
 * retries. Without SLACK_WEBHOOK_URL nothing is queued: alerts are an optional extra.
 */
@Injectable()
export class ChatAlertsService implements OnModuleInit {
  private readonly logger = new Logger('ChatAlerts');

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue.process(NOTIFICATIONS_QUEUE, async (job) => {
      if (job.name === CHAT_ALERT_JOB) await this.post(job.data as ChatAlertJob);
    });
  }

  /** Queues an alert; answers whether one was queued. Identical alerts within a minute are sent once. */
  async alert(input: ChatAlertJob): Promise<boolean> {
    if (!this.config.SLACK_WEBHOOK_URL) return false;
    const minute = Math.floor(Date.now() / 60000);
    const jobId = createHash('sha256').update(`${input.organizationId}:${input.channel}:${input.message}:${minute}`).digest('hex');
    await this.queue.add(NOTIFICATIONS_QUEUE, CHAT_ALERT_JOB, input, { jobId, attempts: 5, backoffMs: 2000 });
    return true;
  }

  private async post(job: ChatAlertJob): Promise<void> {
    const url = this.config.SLACK_WEBHOOK_URL;
    if (!url) return;
    const prefix = job.channel === 'new-course' ? ':tada: New course: ' : '';
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `${prefix}${job.message}` }),
      signal: AbortSignal.timeout(10000),
    });
    if (!response.ok) throw new Error(`chat webhook answered ${response.status}`);
    this.logger.log(`Chat alert sent (${job.channel})`);
  }
}
