import {
  request as httpRequest,
  Agent as HttpAgent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { pipeline } from 'node:stream';

/**
 * What the standalone server passes on to the API unchanged, so the pages' own calls (same-origin
 * fetches), their images and the payment and signing pages work when the store is its own origin:
 * the Storefront API, uploads (course and product pictures), the demo provider's payment and
 * waiver signing pages, and the checkout overlay's script.
 */
export const PROXIED_PATHS = /^\/(api\/(public|media|pay\/demo|sign\/demo)\/|checkout-overlay\.js(\?|$))/;

/** A path with a `.` or `..` segment (plain or percent-encoded), which a proxy in front of the API could resolve elsewhere. */
export const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|\?|$)/i;

/** Hop-by-hop headers (RFC 9110 7.6.1): they describe one connection, and are not passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Headers without the hop-by-hop ones (and those the Connection header names). */
export function endToEndHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!HOP_BY_HOP.has(name) && !named.has(name) && value !== undefined) kept[name] = value;
  return kept;
}

const first = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0].trim();

/**
 * X-Forwarded-For, -Proto and -Host for a request to the API: the client's address appended to
 * the X-Forwarded-For it came with (a proxy in front of this server), as nginx's
 * $proxy_add_x_forwarded_for. The API believes it only when this server is one of its
 * TRUSTED_PROXIES, and then walks back over the trusted hops: a client cannot name its own address.
 */
export function forwardedHeaders(
  request: Pick<IncomingMessage, 'headers' | 'socket'>,
): Record<string, string> {
  const { headers } = request;
  const earlier = Array.isArray(headers['x-forwarded-for'])
    ? headers['x-forwarded-for'].join(', ')
    : headers['x-forwarded-for'];
  const peer = request.socket.remoteAddress ?? '';
  const forwarded: Record<string, string> = {
    'x-forwarded-for': [earlier, peer].filter(Boolean).join(', '),
    'x-forwarded-proto': first(headers['x-forwarded-proto']) || 'http',
  };
  const host = first(headers['x-forwarded-host']) || headers.host;
  if (host) forwarded['x-forwarded-host'] = host;
  return forwarded;
}

/**
 * A reverse proxy to `apiUrl` (http or https): the method, the path with its query, the headers
 * (end to end ones, the API's Host, X-Forwarded-*), the body and the answer (status, headers, body)
 * are streamed both ways. An API that does not answer is 502.
 */
export function apiProxy(apiUrl: string): (request: IncomingMessage, response: ServerResponse) => void {
  const target = new URL(apiUrl);
  const https = target.protocol === 'https:';
  const agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = https ? httpsRequest : httpRequest;
  const prefix = target.pathname.replace(/\/+$/, '');
  return (request, response) => {
    const upstream = send(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port || undefined,
        method: request.method,
        // The path as the client sent it (no URL parsing: a path cannot name another host).
        path: `${prefix}${request.url ?? '/'}`,
        headers: { ...endToEndHeaders(request.headers), ...forwardedHeaders(request), host: target.host },
        agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, endToEndHeaders(answer.headers));
        pipeline(answer, response, () => undefined);
      },
    );
    upstream.on('error', (error) => {
      if (response.headersSent) {
        response.destroy(error);
        return;
      }
      response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      response.end('The store could not reach its API. Please try again in a moment.');
    });
    // pipe, not pipeline: an upstream error must not destroy the client's socket before the 502.
    request.pipe(upstream);
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
  };
}
