import { createZodDto } from './zod-dto';
import { z } from 'zod';

export const errorBodySchema = z
  .object({
    statusCode: z.number().int(),
    message: z.string(),
    errors: z.record(z.string(), z.string()).optional().describe('Message per field'),
  })
;

/** The one error body shape, for the OpenAPI document. */
export class ErrorBodyDto extends createZodDto(errorBodySchema) {}
