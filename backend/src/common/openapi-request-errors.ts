import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

const ERROR_BODY = { $ref: '#/components/schemas/ErrorBodyDto' };
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const ACTION_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** Why any request may be refused before its operation runs, whatever the operation. */
export const MALFORMED_HEADER = 'a header holds a control character (NUL, CR or LF), answered before routing';
export const MALFORMED_PATH = 'a path parameter is not valid percent-encoded UTF-8 (such as %C3%28)';
export const BODY_SENT = 'a request body was sent (even {}), and this action takes none';

/**
 * The 400s no controller declares because no controller sees them, added to the OpenAPI document
 * in one place, so the document lists every status the API answers:
 * - every operation: a malformed header, refused by Node's HTTP parser (web/client-errors.ts);
 * - every operation with a path parameter: a parameter the router cannot decode (frameworkErrors);
 * - every POST, PUT, PATCH and DELETE without a request body: a body sent anyway (BodilessActionGuard).
 * An operation that documents a 400 of its own keeps it, with these reasons added to its
 * description. Every error answer is the one JSON error body, whatever the operation produces.
 */
export function documentRequestErrors(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])] as { in?: string }[];
      const reasons = [MALFORMED_HEADER];
      if (parameters.some((p) => p.in === 'path')) reasons.push(MALFORMED_PATH);
      if (ACTION_METHODS.has(method) && !op.requestBody) reasons.push(BODY_SENT);
      const existing = op.responses['400'] as ResponseObject | undefined;
      op.responses['400'] = existing
        ? { ...existing, description: `${existing.description}; or ${reasons.join('; or ')}` }
        : {
            description: `The request is malformed: ${reasons.join('; or ')}`,
            content: { 'application/json': { schema: ERROR_BODY } },
          };
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400) jsonErrorBody(response as ResponseObject);
      }
    }
  }
  return document;
}

/**
 * An error answer is JSON whatever the operation produces (ErrorFilter): the error body documented
 * under another media type (an HTML page's @ApiProduces) is moved to application/json.
 */
function jsonErrorBody(response: ResponseObject): void {
  const content = response.content;
  if (!content) return;
  for (const [type, media] of Object.entries(content)) {
    if (
      type === 'application/json' ||
      (media.schema as { $ref?: string } | undefined)?.$ref !== ERROR_BODY.$ref
    )
      continue;
    delete content[type];
    content['application/json'] = { schema: ERROR_BODY };
  }
}
