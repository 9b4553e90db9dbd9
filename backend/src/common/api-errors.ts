import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiPayloadTooLargeResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto';

/*
 * The error answers an operation really gives, documented on the operation itself (the OpenAPI
 * fuzz test checks every status it provokes is documented). Auth() adds 401/403, and each
 * controller adds its own 404/409.
 */

/** Query parameters validated by a zod schema: 400 with a message per field. */
export const ApiInvalidQuery = () =>
  ApiBadRequestResponse({ type: ErrorBodyDto, description: 'A query parameter is invalid: message and a message per field' });

/** A JSON body validated by a zod schema: 400 for bad or malformed JSON, 413 over 1 MB. */
export const ApiInvalidBody = () =>
  applyDecorators(
    ApiBadRequestResponse({ type: ErrorBodyDto, description: 'The body is invalid or not JSON: message and a message per field' }),
    ApiPayloadTooLargeResponse({ type: ErrorBodyDto, description: 'The body is over 1 MB' }),
  );

/** A POST that takes no body still reads one when it is sent as JSON: 400 when malformed, 413 over 1 MB. */
export const ApiUnexpectedBody = () =>
  applyDecorators(
    ApiBadRequestResponse({ type: ErrorBodyDto, description: 'A body was sent and is not valid JSON' }),
    ApiPayloadTooLargeResponse({ type: ErrorBodyDto, description: 'A body was sent and is over 1 MB' }),
  );

/** A multipart upload: 400 when the file part is missing, doubled or malformed. */
export const ApiInvalidUpload = () =>
  ApiBadRequestResponse({ type: ErrorBodyDto, description: 'No file, more than one file, or a malformed multipart body' });
