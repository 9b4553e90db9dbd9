#!/usr/bin/env node
// Checks the API's OpenAPI document: valid for the version it declares (swagger-parser), and clean
// under Redocly's recommended rules (openapi-lint.redocly.yaml; skipped problems in .redocly.lint-ignore.yaml).
// Needs the backend built (npm run build).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { openapiDocument } from './openapi-doc.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const doc = openapiDocument();

const parsed = JSON.parse(readFileSync(doc, 'utf8'));
await SwaggerParser.validate(structuredClone(parsed));
console.log(`swagger-parser: OpenAPI ${parsed.openapi} document is valid (${Object.keys(parsed.paths).length} paths).`);

execFileSync(
  process.execPath,
  [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', doc, '--config', 'openapi-lint.redocly.yaml', '--format', 'summary'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
);
