// `npm run test:browser`: the browser tests, one file at a time, each on a copy of one seeded demo
// database made first (demo-template.mjs), dropped at the end. Arguments are passed to `node --test`
// (files or a folder; default tests/).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDemoTemplate } from './demo-template.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const template = await createDemoTemplate();
console.log(`# the demo database seeded once for this run in ${template.seededInMs} ms (${template.name})`);
let code = 1;
try {
  code = await new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--test', '--test-concurrency=1', '--test-timeout=240000', ...(args.length ? args : ['tests/'])],
      { cwd: here, stdio: 'inherit', env: { ...process.env, E2E_DEMO_TEMPLATE: template.name, E2E_APP_PORT: String(template.port) } },
    );
    child.on('close', (exit, signal) => resolve(exit ?? (signal ? 1 : 0)));
  });
} finally {
  template.drop();
}
process.exit(code);
