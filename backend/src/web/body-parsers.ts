import bodyParser from 'body-parser';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MESSAGES } from '@studio/contracts';
import { ApiError } from '../common/api-error';

const PARSER_MESSAGES: Record<string, string> = {
  'entity.parse.failed': MESSAGES.common.malformedJson,
  'entity.too.large': 'The request body is too large',
  'encoding.unsupported': 'Unsupported content encoding',
  'charset.unsupported': 'Unsupported charset',
};

/** Only these methods carry a body here; a body sent with GET, HEAD or DELETE has no meaning and is not read. */
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** The DELETE operations that declare a body: Remove student (a session's, an appointment's), with its optional refund. */
const DELETES_WITH_BODY = [/^\/api\/admin\/enrollment\/[^/]+\/?$/, /^\/api\/admin\/appointments\/[^/]+\/?$/];
const pathOf = (url: string) => {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
};
const withBody = (req: IncomingMessage) =>
  METHODS_WITH_BODY.has(req.method ?? '') ||
  (req.method === 'DELETE' && DELETES_WITH_BODY.some((path) => path.test(pathOf(req.url ?? ''))));

/** Routes that read their body as raw bytes: a provider's signature covers the exact bytes sent. */
export const RAW_BODY_PATHS = ['/api/webhooks/stripe'];
const rawBodyPath = (req: IncomingMessage) => {
  const path = pathOf(req.url ?? '').toLowerCase();
  return RAW_BODY_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
};

type Parser = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The body-parser middleware Express ran (same options, so the same limits, charsets, content
 * encodings and errors), in the order Express ran them: the raw parser first for RAW_BODY_PATHS,
 * then JSON (any content type naming json), then urlencoded forms. A request none of them takes
 * keeps no body, as before: Fastify answers no 415 of its own. Multipart is read by the upload
 * routes themselves (SingleFileInterceptor).
 */
const PARSERS: Parser[] = [
  bodyParser.raw({ limit: '1mb', type: (req) => rawBodyPath(req) && withBody(req) }),
  bodyParser.json({ limit: '1mb', type: (req) => withBody(req) && /json/i.test(String(req.headers['content-type'] ?? '')) }),
  bodyParser.urlencoded({
    extended: false,
    limit: '1mb',
    type: (req) => withBody(req) && /application\/x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? '')),
  }),
];

/** A parser error in the one error shape: a 4xx with the message Express's error handler gave it, never a 500. */
function toClientError(error: unknown): unknown {
  const { type, status } = (error ?? {}) as { type?: string; status?: number };
  if (!type || !status || status < 400 || status >= 500) return error;
  return new ApiError(status, PARSER_MESSAGES[type] ?? 'Bad request');
}

function parseBody(request: FastifyRequest, done: (error: Error | null, body?: unknown) => void): void {
  const req = request.raw as IncomingMessage & { body?: unknown };
  let index = 0;
  const next = (error?: unknown) => {
    if (error) return done(toClientError(error) as Error);
    // Each parser sets req._body once it read the body; the ones after it then leave it alone.
    const parser = PARSERS[index++];
    if (!parser) return done(null, req.body);
    parser(req, request.raw as unknown as ServerResponse, next);
  };
  next();
}

/** JSON and form bodies; a body the parser refuses is a 4xx in the one error shape, never a 500. */
export function mountBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  // Every content type (and none): the parsers above decide, by method, path and type, as on Express.
  app.addContentTypeParser('*', (request, _payload, done) => parseBody(request, done));
}
