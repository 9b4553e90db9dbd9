import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** The newest modification time of the files under `dir`. */
function newest(dir: string): number {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return max;
}

/**
 * The compiled backend (`dist/`) that the worker tests spawn (`node dist/worker.js`), built only when
 * a source file is newer than it. Not rebuilt when it is current, as in CI right after its build step:
 * rewriting `dist/` while the browser tests in the other lane start app servers from it made those
 * servers load half-written files (a controller undefined at start, stop 30's clean run).
 */
export function ensureBackendBuilt(): string {
  const worker = path.join(ROOT, 'dist', 'worker.js');
  const built = statSync(worker, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (newest(path.join(ROOT, 'src')) > built) execSync('npm run build', { cwd: ROOT, stdio: 'ignore' });
  return worker;
}
