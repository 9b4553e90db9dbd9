// The backend's OpenAPI document as a file, made once per run (issue 32: three checks each booted the
// app to write their own copy). `npm test` writes it first and passes its path in OPENAPI_DOC; a
// check run on its own writes it here (backend/dist/cli/openapi.js, which needs the backend built).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The document's path: OPENAPI_DOC when it names a file, else `dist/openapi.json`, written now. */
export function openapiDocument({ quiet = false } = {}) {
  const given = process.env.OPENAPI_DOC;
  if (given && existsSync(given)) return given;
  const doc = join(root, 'dist/openapi.json');
  mkdirSync(dirname(doc), { recursive: true });
  execFileSync(process.execPath, [join(root, 'backend/dist/cli/openapi.js'), doc], { stdio: quiet ? 'ignore' : 'inherit' });
  return doc;
}

// Run as a script: write it (the first step of the OpenAPI checks in `npm test`).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(`OpenAPI document: ${openapiDocument()}`);
