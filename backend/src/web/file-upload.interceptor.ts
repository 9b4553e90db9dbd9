import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  HttpException,
  Injectable,
  mixin,
  NestInterceptor,
  PayloadTooLargeException,
  Type,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import multer from 'multer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished } from 'node:stream';

/** The file multer keeps in memory: what @UploadedFile() hands the route. */
export interface UploadedFileData {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

/** multer's errors (by code) as @nestjs/platform-express's FileInterceptor answered them. */
const BAD_REQUEST_CODES = new Set([
  'LIMIT_PART_COUNT',
  'LIMIT_FILE_COUNT',
  'LIMIT_FIELD_KEY',
  'LIMIT_FIELD_VALUE',
  'LIMIT_FIELD_COUNT',
  'LIMIT_UNEXPECTED_FILE',
  'MISSING_FIELD_NAME',
  'LIMIT_FIELD_NESTING',
  'LIMIT_FIELD_ARRAY_INDEX',
  'INVALID_FIELD_NAME',
]);
/** busboy's errors for a malformed body (by message), also a 400. */
const BUSBOY_MESSAGES = new Set(['Malformed part header', 'Unexpected end of form', 'Unexpected end of file']);

export function uploadException(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof HttpException) return error;
  const { code, field } = error as Error & { code?: string; field?: string };
  if (code === 'LIMIT_FILE_SIZE') return new PayloadTooLargeException(error.message);
  if (code && BAD_REQUEST_CODES.has(code)) return new BadRequestException(field ? `${error.message} - ${field}` : error.message);
  if (error.message === 'Multipart: Boundary not found') return new BadRequestException(error.message);
  if (BUSBOY_MESSAGES.has(error.message)) return new BadRequestException(`Multipart: ${error.message}`);
  return error;
}

/**
 * One file of a multipart body, in memory, read by multer from the Node request (the body parser
 * leaves multipart bodies unread): the FileInterceptor of @nestjs/platform-express on Fastify, with
 * the same limits (parts at most 1000), the same errors, and the request destroyed if the response
 * goes out while the body is still coming.
 */
export function SingleFileInterceptor(field: string, limits: { fileSize: number; files: number }): Type<NestInterceptor> {
  @Injectable()
  class MixinInterceptor implements NestInterceptor {
    private readonly upload = multer({ limits: { ...limits, parts: 1000 } }).single(field);

    async intercept(context: ExecutionContext, next: CallHandler) {
      const http = context.switchToHttp();
      const request = http.getRequest<FastifyRequest & { file?: UploadedFileData }>();
      const req = request.raw as IncomingMessage & { file?: UploadedFileData };
      const res = http.getResponse<FastifyReply>().raw as ServerResponse;
      let receiving = true;
      const stopWatching = finished(res, () => {
        if (receiving && !req.complete) req.destroy();
      });
      try {
        await new Promise<void>((resolve, reject) =>
          this.upload(req as never, res as never, (error?: unknown) => (error ? reject(uploadException(error)) : resolve())),
        );
      } finally {
        receiving = false;
        stopWatching();
      }
      request.file = req.file;
      return next.handle();
    }
  }
  return mixin(MixinInterceptor);
}
