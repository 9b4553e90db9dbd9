/**
 * Fuzz cases generated from the OpenAPI document: for every operation, hostile values in each body
 * field, query parameter and path parameter, plus hostile whole bodies. Pure functions; the e2e
 * file sends them.
 */

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  nullable?: boolean;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  minLength?: number;
  minItems?: number;
  default?: unknown;
  /** A requirement that depends on stored state, not on the body (documented by the API: requiredWhen). */
  'x-required-when'?: string;
};

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  style?: string;
}

export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
  responses?: Record<string, unknown>;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One request to send: the path with its parameters filled, the query text and the body. */
export interface FuzzCase {
  method: string;
  /** The operation's path template, for reports. */
  template: string;
  /** What was changed, for reports: "body.price = 3e9". */
  label: string;
  url: string;
  /** JSON text (sent as application/json unless contentType says otherwise), or multipart parts, or nothing. */
  json?: string;
  /** The content type the json text is sent with, when it is not application/json. */
  contentType?: string;
  multipart?: { fields: [string, string][]; files: { field: string; content: Buffer; name: string }[] };
  /** A header line no HTTP client sends (a NUL, CR or LF in it): the request goes over a raw socket. */
  rawHeader?: string;
  /** The statuses the case may answer (a body sent to an action that takes none: 400 only). */
  expectStatus?: number[];
  /** A field the document does not require, left out of a valid body: the answer must not say it is required. */
  omitted?: string;
}

export const ONE_MB_STRING = 'x'.repeat(1_000_000);
/** Paths and query strings travel in the request line, which Node caps at 16 KB: 8 KB reaches the app. */
export const LONG_URL_STRING = 'y'.repeat(8_000);
const NUL = 'fuzz\u0000text';

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** The methods of actions, which refuse a body when they document none. */
const ACTION_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Header lines Node's HTTP parser refuses (answered before routing, on every operation): a NUL, a
 * bare CR or a bare LF in a value, a NUL in a name, and a NUL in the token header itself.
 */
export const RAW_HEADERS: [string, string][] = [
  ['header value with a NUL byte', 'X-Fuzz: a\u0000b'],
  ['header value with a bare CR', 'X-Fuzz: a\rb'],
  ['header value with a bare LF', 'X-Fuzz: a\nb'],
  ['header name with a NUL byte', 'X-Fu\u0000zz: a'],
  ['token header ending in a NUL byte', 'token: x\u0000'],
];

export function resolve(doc: OpenApiDoc, schema: JsonSchema | undefined): JsonSchema {
  let current = schema ?? {};
  for (let i = 0; i < 20 && current.$ref; i++) {
    const name = current.$ref.split('/').pop()!;
    current = doc.components?.schemas?.[name] ?? {};
  }
  if (current.allOf?.length) {
    const parts = current.allOf.map((s) => resolve(doc, s));
    return {
      ...current,
      allOf: undefined,
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
      required: parts.flatMap((p) => p.required ?? []),
    };
  }
  return current;
}

/** The schema's main type, whether written 3.0 style (nullable) or 3.1 style (type arrays, anyOf null). */
export function typeOf(doc: OpenApiDoc, schema: JsonSchema | undefined): string {
  const s = resolve(doc, schema);
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null') ?? 'string';
  if (s.type) return s.type;
  const variants = s.oneOf ?? s.anyOf;
  if (variants?.length) {
    const first = variants.map((v) => resolve(doc, v)).find((v) => v.type !== 'null');
    return first ? typeOf(doc, first) : 'string';
  }
  if (s.properties) return 'object';
  if (s.enum?.length) return typeof s.enum[0];
  return 'string';
}

/** Whether a body matches a schema's `if` (the subset the document uses: properties with const or enum, and required). */
function matchesCondition(doc: OpenApiDoc, condition: JsonSchema, body: Record<string, unknown>): boolean {
  const c = resolve(doc, condition);
  if ((c.required ?? []).some((key) => !(key in body))) return false;
  return Object.entries(c.properties ?? {}).every(([key, sub]) => {
    if (!(key in body)) return true;
    if (sub.const !== undefined && body[key] !== sub.const) return false;
    return !sub.enum || sub.enum.includes(body[key]);
  });
}

/** The fields an object schema requires of this body: its required list and those of its if/then/else. */
export function requiredFor(doc: OpenApiDoc, schema: JsonSchema, body: Record<string, unknown>): string[] {
  const s = schema as JsonSchema & { if?: JsonSchema; then?: JsonSchema; else?: JsonSchema };
  const branch = s.if ? (matchesCondition(doc, s.if, body) ? s.then : s.else) : undefined;
  return [...(s.required ?? []), ...(branch ? (resolve(doc, branch).required ?? []) : [])];
}

/** The object schema of a body: the first object variant of a oneOf (the full form of an edit). */
export function objectSchemaOf(doc: OpenApiDoc, schema: JsonSchema | undefined): JsonSchema | undefined {
  const s = resolve(doc, schema);
  if (s.properties) return s;
  for (const variant of s.oneOf ?? s.anyOf ?? []) {
    const v = resolve(doc, variant);
    if (v.properties) return v;
  }
  return undefined;
}

/**
 * A plausible value for a schema, for operations without a hand-written valid body: enums take
 * their first value, numbers their minimum, uuids a known id when the field names one.
 */
export function exampleOf(doc: OpenApiDoc, schema: JsonSchema | undefined, name: string, ids: Record<string, string>): unknown {
  const s = resolve(doc, schema);
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  switch (typeOf(doc, s)) {
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array': {
      const min = s.minItems ?? 0;
      return Array.from({ length: min }, () => exampleOf(doc, s.items, name, ids));
    }
    case 'object': {
      const o = objectSchemaOf(doc, s);
      const out: Record<string, unknown> = {};
      for (const key of o?.required ?? []) out[key] = exampleOf(doc, o?.properties?.[key], key, ids);
      return out;
    }
    default:
      if (s.format === 'uuid') return ids[name] ?? '00000000-0000-4000-8000-000000000000';
      if (s.format === 'email') return 'fuzz@example.test';
      if (s.format === 'date-time') return new Date(Date.now() + 86400000).toISOString();
      return 'Fuzz text long enough';
  }
}

/**
 * Hostile values for one field whose valid value is `valid`, those that matter for its type: a string
 * gets a number (wrong type, and 3e9), '', 1 MB and a NUL byte; a number gets text, 3e9, 1e308, −1
 * and a NUL byte; every field gets an array in place of its value.
 */
export function hostileValues(type: string, valid: unknown): [string, unknown][] {
  const asArray: [string, unknown] = ['array in place of scalar', type === 'array' ? [[valid ?? 'x']] : [valid ?? 'x']];
  switch (type) {
    case 'integer':
    case 'number':
      return [['wrong type', 'abc'], ['3e9', 3e9], ['1e308', 1e308], ['-1', -1], ['NUL byte', NUL], asArray];
    case 'boolean':
      return [['wrong type', 'yes'], ['NUL byte', NUL], asArray];
    case 'array':
    case 'object':
      return [['wrong type', 'not a list'], ['3e9', 3e9], asArray];
    default:
      return [['wrong type (3e9)', 3e9], ["''", ''], ['1 MB string', ONE_MB_STRING], ['NUL byte', NUL], asArray];
  }
}

/** Hostile values one level down: inside the first element of an array field, or in an object field. */
function nestedCases(doc: OpenApiDoc, schema: JsonSchema, valid: unknown): [string, unknown][] {
  const s = resolve(doc, schema);
  const cases: [string, unknown][] = [];
  const type = typeOf(doc, s);
  if (type === 'array') {
    const itemType = typeOf(doc, s.items);
    const first = Array.isArray(valid) && valid.length ? valid[0] : undefined;
    const rest = Array.isArray(valid) ? valid.slice(1) : [];
    if (itemType === 'object' && first && typeof first === 'object') {
      const item = objectSchemaOf(doc, s.items);
      for (const [key, sub] of Object.entries(item?.properties ?? {})) {
        for (const [what, value] of hostileValues(typeOf(doc, sub), (first as Record<string, unknown>)[key])) {
          cases.push([`[0].${key} = ${what}`, [{ ...(first as object), [key]: value }, ...rest]]);
        }
      }
      cases.push([`[0] with an extra field`, [{ ...(first as object), fuzz_extra: 1 }, ...rest]]);
    } else {
      for (const [what, value] of hostileValues(itemType, first)) cases.push([`[0] = ${what}`, [value, ...rest]]);
    }
  } else if (type === 'object' && valid && typeof valid === 'object') {
    const o = objectSchemaOf(doc, s);
    for (const [key, sub] of Object.entries(o?.properties ?? {})) {
      for (const [what, value] of hostileValues(typeOf(doc, sub), (valid as Record<string, unknown>)[key])) {
        cases.push([`.${key} = ${what}`, { ...(valid as object), [key]: value }]);
      }
    }
  }
  return cases;
}

/** JSON text of an object with a literal "__proto__" key, as a client would send it. */
function withProtoKey(body: Record<string, unknown>): string {
  const text = JSON.stringify(body);
  const proto = '"__proto__":{"isAdmin":true,"organization_id":"00000000-0000-4000-8000-000000000000"}';
  return text === '{}' ? `{${proto}}` : `{${proto},${text.slice(1)}`;
}

const encodeQuery = (pairs: [string, string][]) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(v)}`).join('&');

export interface Baselines {
  /** Valid path parameter values by parameter name. */
  ids: Record<string, string>;
  /** Valid bodies by "METHOD /path" (JSON operations). */
  bodies: Record<string, Record<string, unknown>>;
  /** A valid file for multipart operations. */
  file: { field: string; content: Buffer; name: string };
}

/** Every fuzz case of one operation. */
export function casesFor(doc: OpenApiDoc, template: string, method: string, op: OpenApiOperation, base: Baselines): FuzzCase[] {
  const key = `${method.toUpperCase()} ${template}`;
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const fillPath = (overrides: Record<string, string> = {}) =>
    template.replace(/\{(\w+)\}/g, (_, name: string) =>
      name in overrides ? overrides[name] : encodeURIComponent(base.ids[name] ?? '00000000-0000-4000-8000-000000000000'),
    );
  const content = op.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema;
  const multipartSchema = content['multipart/form-data']?.schema;
  const bodySchema = jsonSchema ? objectSchemaOf(doc, jsonSchema) : undefined;
  const validBody: Record<string, unknown> | undefined = jsonSchema
    ? (base.bodies[key] ?? (exampleOf(doc, jsonSchema, '', base.ids) as Record<string, unknown>))
    : undefined;
  const validJson = validBody ? JSON.stringify(validBody) : undefined;
  const validMultipart = multipartSchema ? { fields: [] as [string, string][], files: [base.file] } : undefined;
  const cases: FuzzCase[] = [];
  const push = (label: string, parts: Partial<FuzzCase>) =>
    cases.push({ method, template, label, url: fillPath(), json: validJson, multipart: validMultipart, ...parts });

  for (const p of pathParams) {
    for (const [what, raw] of [
      ['invalid UUID', 'not-a-uuid'],
      ['invalid UTF-8 (%C3%28)', '%C3%28'],
      [
        'invalid UTF-8 (%FF)',
        `${(base.ids[p.name] ?? '00000000-0000-4000-8000-000000000000').slice(0, 35)}%FF`,
      ],
      ['NUL byte', '%00'],
      ['uuid with NUL', `${(base.ids[p.name] ?? '00000000-0000-4000-8000-000000000000').slice(0, 35)}%00`],
      ['3e9', '3000000000'],
      ['1e308', '1e308'],
      ['-1', '-1'],
      ['long string', LONG_URL_STRING],
    ] as const) {
      push(`path ${p.name} = ${what}`, { url: fillPath({ [p.name]: raw }) });
    }
  }

  for (const p of queryParams) {
    const type = typeOf(doc, p.schema);
    const sends: [string, [string, string][]][] = [
      ['wrong type', [[p.name, type === 'string' ? '3000000000' : 'abc']]],
      ['3e9', [[p.name, '3000000000']]],
      ['1e308', [[p.name, '1e308']]],
      ['-1', [[p.name, '-1']]],
      ["''", [[p.name, '']]],
      ['long string', [[p.name, LONG_URL_STRING]]],
      ['NUL byte', [[p.name, NUL]]],
      ['array in place of scalar', [[p.name, 'a'], [p.name, 'b']]],
    ];
    if (p.style === 'deepObject' || type === 'object') {
      for (const column of ['first_name', 'last_name', 'email', 'phone', 'waiverStatus', 'guestCount']) {
        for (const [what, value] of [['NUL byte', NUL], ['3e9', '3000000000'], ['-1', '-1'], ['long string', LONG_URL_STRING]]) {
          sends.push([`[${column}] = ${what}`, [[`${p.name}[${column}]`, value]]]);
        }
      }
    }
    for (const [what, pairs] of sends) push(`query ${p.name} ${what.startsWith('[') ? '' : '= '}${what}`, { url: `${fillPath()}?${encodeQuery(pairs)}` });
  }
  push('query with an extra parameter', { url: `${fillPath()}?fuzz_extra=1` });
  push('query with a __proto__ key', { url: `${fillPath()}?__proto__[isAdmin]=true&constructor[prototype][isAdmin]=true` });

  if (validBody) {
    for (const [name, schema] of Object.entries(bodySchema?.properties ?? {})) {
      const type = typeOf(doc, schema);
      for (const [what, value] of hostileValues(type, validBody[name])) {
        push(`body.${name} = ${what}`, { json: JSON.stringify({ ...validBody, [name]: value }) });
      }
      for (const [what, value] of nestedCases(doc, schema, validBody[name])) {
        push(`body.${name}${what}`, { json: JSON.stringify({ ...validBody, [name]: value }) });
      }
    }
    // The document's required fields against the server's: a field it requires (for this body) left
    // out is a 400; one it leaves optional may be left out, and an answer naming it as missing means
    // the server requires what the document does not say. A field required by stored state (a paid
    // session's price) says so in x-required-when.
    const required = bodySchema ? requiredFor(doc, bodySchema, validBody) : [];
    for (const name of Object.keys(validBody)) {
      const json = JSON.stringify(
        Object.fromEntries(Object.entries(validBody).filter(([key]) => key !== name)),
      );
      if (required.includes(name))
        push(`body without the required ${name}`, { json, expectStatus: [400, 404] });
      else if (resolve(doc, bodySchema?.properties?.[name])['x-required-when'])
        push(`body without ${name} (required when stored state says)`, { json });
      else push(`body without the optional ${name}`, { json, omitted: name });
    }
    push('body with an extra field', { json: JSON.stringify({ ...validBody, fuzz_extra: 'x' }) });
    push('body with a __proto__ key', { json: withProtoKey(validBody) });
    push('body with constructor.prototype', { json: JSON.stringify({ ...validBody, constructor: { prototype: { isAdmin: true } } }) });
    push('body is an array', { json: JSON.stringify([validBody]) });
    push('body is a string', { json: JSON.stringify('text') });
    push('body is null', { json: 'null' });
    push('body is a NUL byte', { json: JSON.stringify(NUL) });
    push('body is malformed JSON', { json: '{"a":' });
  } else if (validMultipart) {
    const file = base.file;
    push('multipart without the file', { multipart: { fields: [], files: [] } });
    push('multipart with the file as a text field', { multipart: { fields: [[file.field, 'not a file']], files: [] } });
    push('multipart file name with a NUL byte', { multipart: { fields: [], files: [{ ...file, name: 'a\u0000b.png' }] } });
    push('multipart file of 1 MB of text', { multipart: { fields: [], files: [{ ...file, content: Buffer.from(ONE_MB_STRING) }] } });
    push('multipart file of NUL bytes', { multipart: { fields: [], files: [{ ...file, content: Buffer.alloc(1024) }] } });
    push('multipart with an extra field', { multipart: { fields: [['fuzz_extra', NUL]], files: [file] } });
    push('multipart with a __proto__ field', { multipart: { fields: [['__proto__', 'x']], files: [file] } });
    push('multipart with two files', { multipart: { fields: [], files: [file, file] } });
    push('multipart with a JSON body instead', { json: JSON.stringify({ file: 'x' }), multipart: undefined });
  } else {
    // No body is documented: an action refuses one (400, whatever it holds, {} included); a GET
    // ignores it. Never a 500.
    const refused = ACTION_METHODS.has(method) ? { expectStatus: [400] } : {};
    push('unexpected JSON body', { json: JSON.stringify({ fuzz_extra: NUL, n: 3e9 }), ...refused });
    push('unexpected body with a __proto__ key', { json: withProtoKey({ a: 1 }), ...refused });
    push('unexpected malformed JSON body', { json: '{"a":', ...refused });
    push('unexpected empty JSON object', { json: '{}', ...refused });
    push('unexpected form body', {
      json: 'a=1',
      contentType: 'application/x-www-form-urlencoded',
      ...refused,
    });
    push('unexpected text body', { json: 'fuzz', contentType: 'text/plain', ...refused });
  }
  for (const [what, line] of RAW_HEADERS) push(what, { rawHeader: line, expectStatus: [400] });
  return cases;
}
