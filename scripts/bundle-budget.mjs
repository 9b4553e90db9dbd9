#!/usr/bin/env node
/**
 * Bundle budget (issue 2): gzip size of the JavaScript the shell loads before sign-in, and of each
 * remote's entry plus its first drawer. Reads the chunk-group graph each build writes to
 * <workspace>/dist/chunk-graph.json. Prints a table; exits 1 when a budget is exceeded.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KB = 1024;
const SHELL_BUDGET = 250 * KB;
const REMOTE_BUDGET = 60 * KB;
const REMOTES = ['courses', 'orders', 'students', 'integrations'];

function readGraph(workspace) {
  const file = path.join(root, workspace, 'dist', 'chunk-graph.json');
  if (!existsSync(file))
    throw new Error(`${file} is missing: run npm run build -w @studio/${workspace} first`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Files loaded from the start groups, following import() and shared-module consumes. A provided
 * shared module is only registered at start, its chunk loads when consumed, so those edges are
 * not followed; neither are groups the page does not open (the admin area, other drawers).
 */
function loadedFiles(graph, startIds, skip) {
  const byId = new Map(graph.map((group) => [group.id, group]));
  const files = new Set();
  const seen = new Set();
  const queue = [...startIds];
  while (queue.length) {
    const group = byId.get(queue.shift());
    if (!group || seen.has(group.id)) continue;
    seen.add(group.id);
    group.files.forEach((file) => files.add(file));
    for (const child of group.children) {
      const target = byId.get(child.id);
      if (child.via.every((via) => via === 'provide-module')) continue;
      if (target && skip(target)) continue;
      queue.push(child.id);
    }
  }
  return [...files];
}

function gzipBytes(workspace, files) {
  return files.reduce(
    (sum, file) =>
      sum + gzipSync(readFileSync(path.join(root, workspace, 'dist', file)), { level: 9 }).length,
    0,
  );
}

const rows = [];

const shell = readGraph('shell');
const shellStart = shell.filter((group) => group.name === 'main').map((group) => group.id);
const shellFiles = loadedFiles(shell, shellStart, (group) => group.name === 'admin');
rows.push({
  what: 'shell before sign-in',
  files: shellFiles.length,
  bytes: gzipBytes('shell', shellFiles),
  budget: SHELL_BUDGET,
});

for (const remote of REMOTES) {
  const workspace = `mfe-${remote}`;
  if (process.argv.includes('--shell-only')) break;
  const graph = readGraph(workspace);
  const entry = graph.find((group) => group.name === `mfe_${remote}`);
  // The first drawer of the registry (src/drawers.ts) names its chunk "drawer-<type>".
  const registry = readFileSync(path.join(root, workspace, 'src', 'drawers.ts'), 'utf8');
  const firstName = /webpackChunkName:\s*"(drawer-[^"]+)"/.exec(registry)?.[1];
  const first = graph.find((group) => group.name === firstName);
  if (!entry || !first) throw new Error(`${workspace}: no remote entry or drawer chunk in the build`);
  const exposeIds = entry.children.map((child) => child.id);
  const files = loadedFiles(
    graph,
    [entry.id, ...exposeIds, first.id],
    (group) => group.name?.startsWith('drawer-') && group !== first,
  );
  rows.push({
    what: `${workspace} entry + ${first.name}`,
    files: files.length,
    bytes: gzipBytes(workspace, files),
    budget: REMOTE_BUDGET,
  });
}

const pad = (text, width) => String(text).padEnd(width);
console.log(`${pad('bundle', 44)}${pad('files', 7)}${pad('gzip KB', 10)}${pad('budget KB', 11)}result`);
let over = false;
for (const row of rows) {
  const ok = row.bytes <= row.budget;
  over ||= !ok;
  console.log(
    `${pad(row.what, 44)}${pad(row.files, 7)}${pad((row.bytes / KB).toFixed(1), 10)}${pad(row.budget / KB, 11)}${ok ? 'ok' : 'OVER BUDGET'}`,
  );
}
process.exit(over ? 1 : 0);
