import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { BullBoardInstance, InjectBullBoard } from '@bull-board/nestjs';
import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import { DomainError } from '../../common/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { AuthService } from '../../modules/identity/auth.service';
import { BullMqJobQueue } from '../bullmq-job-queue';
import { JOB_QUEUE, JobQueue, REDIS_CONNECTION } from '../job-queue';

export const DASHBOARD_ROUTE = '/admin/queues';
export const DASHBOARD_COOKIE = 'studio_queue_dashboard';
const TICKET_TTL_S = 60;
const SESSION_TTL_S = 30 * 60;

/**
 * Who may see the queue dashboard: the one-time tickets and the dashboard sessions live in Redis
 * (the dashboard exists only with BullMQ). A session holds the super admin's API token, so every
 * request re-resolves it: a signed-out or demoted user loses the dashboard at once.
 */
@Injectable()
export class QueueDashboardGate {
  private readonly shown = new Set<string>();
  readonly secureCookies: boolean;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(REDIS_CONNECTION) private readonly redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectBullBoard() private readonly board: BullBoardInstance,
    private readonly auth: AuthService,
    private readonly em: EntityManager,
  ) {
    this.secureCookies = config.NODE_ENV === 'production';
    gateHolder.gate = this;
  }

  private key(kind: 'ticket' | 'session', id: string) {
    return `${this.config.REDIS_PREFIX}:queue-dashboard:${kind}:${id}`;
  }

  private requireRedis(): Redis {
    if (!(this.queue instanceof BullMqJobQueue) || !this.redis) {
      throw new ApiError(
        HttpStatus.SERVICE_UNAVAILABLE,
        'The queue dashboard needs Redis: jobs run in this process (in-process queue), so there is nothing to show.',
      );
    }
    return this.redis;
  }

  /** `token`: the caller's API token (already checked: super admin), held by the dashboard session. */
  async issueTicket(token: string): Promise<string> {
    const redis = this.requireRedis();
    const ticket = randomBytes(32).toString('base64url');
    await redis.set(this.key('ticket', ticket), token, 'EX', TICKET_TTL_S);
    return ticket;
  }

  /** One use: the ticket is taken (GETDEL) and becomes a dashboard session id. */
  async redeemTicket(ticket: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(ticket)) return null;
    const redis = this.requireRedis();
    const token = await redis.getdel(this.key('ticket', ticket));
    if (!token) return null;
    const session = randomBytes(32).toString('base64url');
    await redis.set(this.key('session', session), token, 'EX', SESSION_TTL_S);
    return session;
  }

  /**
   * In front of every bull-board route: a live super admin session, or 401/403 (answered here, so
   * nothing of bull-board runs). Resolves when the request may go on.
   */
  async check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      const redis = this.requireRedis();
      const cookie = readCookie(request.headers.cookie, DASHBOARD_COOKIE);
      const token = cookie && /^[A-Za-z0-9_-]{20,100}$/.test(cookie) ? await redis.get(this.key('session', cookie)) : null;
      const ctx = token ? await OrmContext.create(this.em, () => this.auth.resolve(token)) : null;
      if (!ctx) {
        await reply.status(401).send({ statusCode: 401, message: 'Open the queue dashboard from the admin (super admins only).' });
        return;
      }
      if (ctx.role !== 'super_admin') {
        await reply.status(403).send({ statusCode: 403, message: 'Only super admins can see the queue dashboard.' });
        return;
      }
      this.showQueues();
    } catch (error) {
      if (error instanceof DomainError) {
        await reply.status(error.status).send(error.toBody());
        return;
      }
      if (error instanceof ApiError) {
        await reply.status(error.getStatus()).send(error.getResponse());
        return;
      }
      throw error;
    }
  }

  /** Adds the queues this process knows (they appear as modules enqueue or process). */
  private showQueues(): void {
    if (!(this.queue instanceof BullMqJobQueue)) return;
    for (const name of this.queue.queueNames()) {
      if (this.shown.has(name)) continue;
      this.shown.add(name);
      this.board.addQueue(new BullMQAdapter(this.queue.bullQueue(name), { readOnlyMode: false }));
    }
  }
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

/** bull-board's routes are registered by its Nest module: the hook reaches the Nest-built gate through this. */
const gateHolder: { gate: QueueDashboardGate | null } = { gate: null };

const dashboardGate: onRequestHookHandler = async (request, reply) => {
  if (!gateHolder.gate) {
    await reply.status(503).send({ statusCode: 503, message: 'The queue dashboard is starting.' });
    return;
  }
  await gateHolder.gate.check(request, reply);
};

/**
 * Puts the gate in front of every route under /api/admin/queues (bull-board's page, its API and its
 * static files) as the route is added: by route rather than by URL text, so no spelling of a path
 * that the router matches (letter case, percent-encoding, a trailing slash) reaches bull-board
 * without it. Call before the app's modules register their routes.
 */
export function gateQueueDashboard(app: FastifyInstance): void {
  const prefix = `/api${DASHBOARD_ROUTE}`;
  app.addHook('onRoute', (route) => {
    if (route.url !== prefix && !route.url.startsWith(`${prefix}/`)) return;
    const hooks = route.onRequest;
    route.onRequest = [...(Array.isArray(hooks) ? hooks : hooks ? [hooks] : []), dashboardGate];
  });
}

/**
 * bull-board's Nest module takes a middleware for its entry route only: the gate is the route hook
 * above instead, which covers all of its routes. This one lets every request through.
 */
export function dashboardMiddleware(_req: unknown, _res: unknown, next: () => void): void {
  next();
}
