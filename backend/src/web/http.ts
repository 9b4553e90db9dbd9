import accepts from 'accepts';
import { serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The type a client prefers among `types` ('json', 'html', ...), false for none: Express's
 * req.accepts(), the same `accepts` package (no Accept header: the first type).
 */
export function preferredType(request: FastifyRequest, types: string[]): string | false {
  return accepts(request.raw).type(types) as string | false;
}

/** Whether the request came over HTTPS (X-Forwarded-Proto only from TRUSTED_PROXIES): Express's req.secure. */
export const isSecure = (request: FastifyRequest) => request.protocol === 'https';

export interface CookieOptions {
  httpOnly: boolean;
  sameSite: 'strict';
  secure: boolean;
  path: string;
  /** Milliseconds, as Express's res.cookie took it. */
  maxAge: number;
}

/**
 * Adds a Set-Cookie header as Express's res.cookie wrote it: cookie 0.7's serialize, with the value
 * URI-encoded, Max-Age in seconds and the matching Expires.
 */
export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  const header = serialize(name, value, {
    maxAge: Math.floor(options.maxAge / 1000),
    path: options.path,
    expires: new Date(Date.now() + options.maxAge),
    httpOnly: options.httpOnly,
    secure: options.secure,
    sameSite: options.sameSite,
  });
  void reply.header('Set-Cookie', header);
}

/** An HTML page: Express's res.type('html') and its Cache-Control, then the body. */
export function sendHtml(reply: FastifyReply, status: number, body: string): void {
  void reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);
}
