#!/usr/bin/env node
// Prints libs/ui/src/api/known-missing.ts (the API calls screens need that the server does not
// serve yet) and fails when an entry is now served: that screen must move to the typed client.
// Reads the OpenAPI document the built backend writes (backend/dist/cli/openapi.js).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { openapiDocument } from './openapi-doc.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'known-missing-'));

const source = readFileSync(join(root, 'libs/ui/src/api/known-missing.ts'), 'utf8');
const { outputText } = ts.transpileModule(source, {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
});
writeFileSync(join(dir, 'known-missing.mjs'), outputText);
const { KNOWN_MISSING } = await import(pathToFileURL(join(dir, 'known-missing.mjs')).href);

const doc = JSON.parse(readFileSync(openapiDocument({ quiet: true }), 'utf8'));

function resolve(schema) {
  let s = schema;
  while (s?.$ref)
    s = s.$ref
      .split('/')
      .slice(1)
      .reduce((node, key) => node[key], doc);
  return s;
}

/** Why the entry is no longer missing, or null while it still is. */
function served(entry) {
  const operation = doc.paths?.[entry.path]?.[entry.method];
  if (!entry.field) return operation ? `${entry.method.toUpperCase()} ${entry.path} is served` : null;
  if (!operation) return null;
  const schema = resolve(operation.responses?.['200']?.content?.['application/json']?.schema);
  const fields = new Set([
    ...Object.keys(schema?.properties ?? {}),
    ...(schema?.allOf ?? []).flatMap((part) => Object.keys(resolve(part)?.properties ?? {})),
  ]);
  return fields.has(entry.field) ? `${entry.path} now answers ${entry.field}` : null;
}

console.log(`known-missing: ${KNOWN_MISSING.length} API calls screens need that are not built yet`);
let stale = 0;
for (const entry of KNOWN_MISSING) {
  const call = `${entry.method.toUpperCase()} ${entry.path}${entry.field ? ` → ${entry.field}` : ''}`;
  const now = served(entry);
  if (now) stale += 1;
  console.log(`  ${now ? 'NOW SERVED ' : ''}${call.padEnd(62)} issue ${entry.issue}  ${entry.screen}`);
}
if (stale) {
  console.error(
    `${stale} known-missing entr${stale === 1 ? 'y is' : 'ies are'} now served: call ${stale === 1 ? 'it' : 'them'} through the typed client and remove ${stale === 1 ? 'it' : 'them'} from libs/ui/src/api/known-missing.ts.`,
  );
  process.exit(1);
}
