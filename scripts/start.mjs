#!/usr/bin/env node
// `npm start`: builds only when a project's sources are newer than its build (or it was never
// built), then runs the API in this process. Even a fully cached `nx run-many -t build` costs
// seconds, too much for a start that must be up in under 3 s on an existing build (issue 12).
// Sources: every file of a project that builds (package.json with a build script) outside
// dist/node_modules and tests, plus the shared tsconfig.base.json, package-lock.json and libs/ui.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SKIP = new Set(['dist', 'node_modules', 'test', 'coverage', '.nx', 'tests']);
const TEST_FILE = /\.(spec|e2e-spec|test)\.[cm]?[jt]sx?$/;
// When the last build that this script ran started: nx leaves cached outputs untouched when a
// source was only touched, so the outputs' own times alone would ask for a build on every start.
const STAMP = join(ROOT, 'node_modules', '.cache', 'studio-start', 'built-at');
const stampMs = () => (existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0);

function newest(dir, skipNames = SKIP) {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipNames.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) max = Math.max(max, newest(path, skipNames));
    else if (entry.isFile() && !TEST_FILE.test(entry.name)) max = Math.max(max, statSync(path).mtimeMs);
  }
  return max;
}

/** Why a build is needed, or null when every build output is newer than its sources. */
function staleReason() {
  const { workspaces } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const projects = workspaces.map((project) => ({
    project,
    dir: join(ROOT, project),
    pkg: JSON.parse(readFileSync(join(ROOT, project, 'package.json'), 'utf8')),
  }));
  // Shared inputs: the root configs, and libraries bundled by others without a build of their own (libs/ui).
  const shared = Math.max(
    ...['tsconfig.base.json', 'package-lock.json'].map((f) => (existsSync(join(ROOT, f)) ? statSync(join(ROOT, f)).mtimeMs : 0)),
    ...projects.filter((p) => !p.pkg.scripts?.build && p.project.startsWith('libs/')).map((p) => newest(p.dir)),
  );
  for (const { project, dir, pkg } of projects) {
    if (!pkg.scripts?.build) continue;
    const dist = join(dir, 'dist');
    if (!existsSync(dist)) return `${project} was never built`;
    const built = Math.max(newest(dist, new Set()), stampMs());
    if (Math.max(newest(dir), shared) > built) return `${project} changed since its build`;
  }
  return null;
}

const t0 = performance.now();
const reason = process.env.START_BUILD === 'always' ? 'START_BUILD=always' : staleReason();
// START_BUILD=check: say whether a build would run, and stop.
if (process.env.START_BUILD === 'check') {
  console.log(`${reason ?? 'up to date'} (checked in ${(performance.now() - t0).toFixed(0)} ms)`);
  process.exit(0);
}
if (reason) {
  console.log(`Building first (${reason})…`);
  const startedAt = new Date();
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
  utimesSync(STAMP, startedAt, startedAt);
}
await import(pathToFileURL(join(ROOT, 'backend/dist/main.js')).href);
