#!/usr/bin/env node
// Generates libs/contracts/src/generated/api.ts from the backend's OpenAPI document.
//   node scripts/api-types.mjs          write the file
//   node scripts/api-types.mjs --check  fail when the committed file is stale
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openapiDocument } from './openapi-doc.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'libs/contracts/src/generated/api.ts');
const dir = mkdtempSync(join(tmpdir(), 'api-types-'));
const out = join(dir, 'api.ts');
// Written anew when generating; the check reads the run's one document (OPENAPI_DOC) when there is one.
if (!process.argv.includes('--check')) delete process.env.OPENAPI_DOC;
const doc = openapiDocument();
execFileSync(process.execPath, [join(root, 'node_modules/openapi-typescript/bin/cli.js'), doc, '-o', out], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
const header = '// Generated from the backend OpenAPI document by scripts/api-types.mjs. Do not edit.\n';
const generated = header + readFileSync(out, 'utf8');

if (process.argv.includes('--check')) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== generated) {
    console.error('libs/contracts/src/generated/api.ts is stale: run `npm run api:types` and commit it.');
    process.exit(1);
  }
  console.log('API types are up to date.');
} else {
  writeFileSync(target, generated);
  console.log(`Wrote ${target}`);
}
