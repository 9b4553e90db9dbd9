import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorBody } from '../common/api-error';
import type { securityHeaders } from './security-headers';

/** What Node's HTTP parser refused, by its error code: a request we could not read, told in the one error shape. */
function clientErrorBody(code: string | undefined): ErrorBody {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { statusCode: 408, message: 'The request took too long to arrive' };
  if (code === 'HPE_HEADER_OVERFLOW')
    return { statusCode: 431, message: 'The request headers are too large' };
  if (code === 'HPE_INVALID_HEADER_TOKEN' || code === 'HPE_LF_EXPECTED' || code === 'HPE_CR_EXPECTED')
    return {
      statusCode: 400,
      message: 'A request header is malformed (a control character such as NUL, CR or LF)',
    };
  return { statusCode: 400, message: 'The request is malformed' };
}

/** The security headers every answer carries, as header lines: helmet run once on a stand-in response. */
function securityHeaderLines(headers: ReturnType<typeof securityHeaders>): string {
  const collected = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => collected.set(name, String(value)),
    removeHeader: (name: string) => collected.delete(name),
    getHeader: (name: string) => collected.get(name),
  };
  headers({ url: '/', headers: {} } as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return [...collected].map(([name, value]) => `${name}: ${value}\r\n`).join('');
}

/**
 * The answer to a request Node's HTTP parser refuses before Fastify sees it (a NUL, CR or LF in a
 * header, a malformed request line, headers over the limit): the one error body and the security
 * headers, written on the socket as Node and Fastify do by default (their body has a shape of its
 * own), then the connection is closed, since the rest of its bytes cannot be trusted.
 */
export function clientErrorHandler(headers: ReturnType<typeof securityHeaders>) {
  const security = securityHeaderLines(headers);
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A reset connection has nobody left to answer (Node's and Fastify's default do the same).
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      const body = clientErrorBody(error.code);
      const json = JSON.stringify(body);
      socket.write(
        `HTTP/1.1 ${body.statusCode} ${STATUS_CODES[body.statusCode]}\r\n` +
          security +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(json)}\r\n` +
          'Cache-Control: no-store\r\n' +
          'Connection: close\r\n\r\n' +
          json,
      );
    }
    socket.destroy(error);
  };
}
