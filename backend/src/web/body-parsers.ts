import express, { Express, NextFunction, Request, Response } from 'express';
import { MESSAGES } from '@studio/contracts';
import { ErrorBody } from '../common/api-error';

const PARSER_MESSAGES: Record<string, string> = {
  'entity.parse.failed': MESSAGES.common.malformedJson,
  'entity.too.large': 'The request body is too large',
  'encoding.unsupported': 'Unsupported content encoding',
  'charset.unsupported': 'Unsupported charset',
};

/** Only these methods carry a body here; a body sent with GET, HEAD or DELETE has no meaning and is not read. */
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** The DELETE operations that declare a body: Remove student, with its optional refund. */
const DELETES_WITH_BODY = [/^\/api\/admin\/enrollment\/[^/]+\/?$/];
const withBody = (req: Request) =>
  METHODS_WITH_BODY.has(req.method) || (req.method === 'DELETE' && DELETES_WITH_BODY.some((path) => path.test(req.path)));

/** Routes that read their body as raw bytes: a provider's signature covers the exact bytes sent. */
export const RAW_BODY_PATHS = ['/api/webhooks/stripe'];

/** JSON and form bodies; a body the parser refuses is a 4xx in the one error shape, never a 500. */
export function mountBodyParsers(app: Express): void {
  // First, so the JSON parser finds these bodies already read and leaves them as a Buffer.
  app.use(RAW_BODY_PATHS, express.raw({ limit: '1mb', type: (req) => withBody(req as Request) }));
  app.use(express.json({ limit: '1mb', type: (req) => withBody(req as Request) && /json/i.test(String(req.headers['content-type'] ?? '')) }));
  app.use(
    express.urlencoded({
      extended: false,
      limit: '1mb',
      type: (req) => withBody(req as Request) && /application\/x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? '')),
    }),
  );
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const { type, status } = (error ?? {}) as { type?: string; status?: number };
    if (!type || !status || status < 400 || status >= 500) return next(error);
    const body: ErrorBody = { statusCode: status, message: PARSER_MESSAGES[type] ?? 'Bad request' };
    res.status(status).json(body);
  });
}
