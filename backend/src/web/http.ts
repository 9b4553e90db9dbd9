import accepts from 'accepts';
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
 * Adds a Set-Cookie header, byte for byte what Express's res.cookie wrote (cookie 0.7's
 * serialize): the value URI-encoded, then Max-Age in seconds, Path, Expires, HttpOnly, Secure, SameSite.
 */
export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Max-Age=${Math.floor(options.maxAge / 1000)}`,
    `Path=${options.path}`,
    `Expires=${new Date(Date.now() + options.maxAge).toUTCString()}`,
  ];
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  parts.push('SameSite=Strict');
  void reply.header('Set-Cookie', parts.join('; '));
}

/** An HTML page: Express's res.type('html') and its Cache-Control, then the body. */
export function sendHtml(reply: FastifyReply, status: number, body: string): void {
  void reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);
}
