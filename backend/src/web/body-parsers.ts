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
const withBody = (req: Request) => METHODS_WITH_BODY.has(req.method);

/** JSON and form bodies; a body the parser refuses is a 4xx in the one error shape, never a 500. */
export function mountBodyParsers(app: Express): void {
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
