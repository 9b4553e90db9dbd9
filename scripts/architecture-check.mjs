#!/usr/bin/env node
// The backend's two architecture rules (issue 33), checked by `npm run lint`:
//  1. No cycle between backend folders (`backend/src/modules/<name>`, and each other top folder of
//     `backend/src`): the import graph of the files (dependency-cruiser, type-only imports included)
//     collapsed to folders must stay acyclic. Cycles that exist today are listed in the baseline
//     (scripts/architecture-baseline.json) as the folder edges inside them: an edge not listed that
//     closes a cycle fails the check, with the cycle it closes.
//  2. No SQL on another module's tables outside a `*.query.ts` file: every SQL text in a string or
//     template literal (read with the TypeScript parser, so prose never counts) that names a table
//     (`from`, `join`, `update`, `into`, `delete from`) is checked against the table's owner
//     (scripts/architecture.json: every table of the migrations has one). A file of another folder
//     that writes or reads it fails, unless it is a query file (reads across modules live there) or
//     the pair is in the baseline.
// The baseline only shrinks: a listed exception that no longer occurs is reported, to be removed.
// `node scripts/architecture-check.mjs --update-baseline` rewrites the baseline to what is found now
// (for a deliberate, reviewed change).
import { cruise } from 'dependency-cruiser';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = 'backend/src';
const OWNERS = JSON.parse(readFileSync(path.join(ROOT, 'scripts/architecture.json'), 'utf8'));
const BASELINE_FILE = path.join(ROOT, 'scripts/architecture-baseline.json');
const baseline = JSON.parse(readFileSync(BASELINE_FILE, 'utf8'));
const update = process.argv.includes('--update-baseline');

/** A file's folder: `modules/<name>` for a module, the top folder otherwise, `(root)` for main.ts and its peers. */
function folderOf(file) {
  const rel = path.relative(SRC, file).split(path.sep);
  if (rel.length === 1) return '(root)';
  if (rel[0] === 'modules') return `modules/${rel[1]}`;
  return rel[0];
}

const result = await cruise([SRC], {
  tsConfig: { fileName: 'backend/tsconfig.json' },
  tsPreCompilationDeps: true,
  exclude: { path: '\\.spec\\.ts$|/database/migrations/' },
  doNotFollow: { path: 'node_modules' },
  outputType: 'json',
});
const graph = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
const files = graph.modules.filter((m) => m.source.startsWith(`${SRC}/`) && m.source.endsWith('.ts'));

// 1. Folder cycles.
const edges = new Map(); // "a -> b" -> an example import
for (const m of files) {
  const from = folderOf(m.source);
  for (const d of m.dependencies) {
    if (!d.resolved.startsWith(`${SRC}/`)) continue;
    const to = folderOf(d.resolved);
    if (to !== from && !edges.has(`${from} -> ${to}`)) edges.set(`${from} -> ${to}`, `${m.source} imports ${d.resolved}`);
  }
}
const out = new Map();
for (const key of edges.keys()) {
  const [a, b] = key.split(' -> ');
  if (!out.has(a)) out.set(a, []);
  out.get(a).push(b);
}
/** Strongly connected components (Tarjan): a folder's id in its component. */
function components() {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const comp = new Map();
  let id = 0;
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of out.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.set(w, id);
      } while (w !== v);
      id++;
    }
  };
  for (const v of out.keys()) if (!idx.has(v)) visit(v);
  return comp;
}
const comp = components();
const cyclic = [...edges.keys()].filter((key) => {
  const [a, b] = key.split(' -> ');
  return comp.get(a) === comp.get(b);
});
/** A path from `from` to `to` inside the graph (breadth first), for the message. */
function pathBetween(from, to) {
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift();
    if (v === to) break;
    for (const w of out.get(v) ?? []) {
      if (prev.has(w)) continue;
      prev.set(w, v);
      queue.push(w);
    }
  }
  const route = [];
  for (let v = to; v !== null && v !== undefined; v = prev.get(v)) route.unshift(v);
  return route;
}

// 2. SQL on another module's tables.
const TABLES = new Set(Object.keys(OWNERS.tables));
const SQL_WORDS = /\b(select|insert|update|delete|with)\b/i;
const TABLE_REF = /\b(?:from|join|update|into)\s+"?([a-z_][a-z0-9_]*)"?/gi;
const sqlFindings = new Map(); // "file uses table (owner's)" -> the file's folder
const unknownTables = new Set();
for (const m of files) {
  const folder = folderOf(m.source);
  if (m.source.endsWith('.query.ts') || folder === 'database') continue;
  const text = readFileSync(path.join(ROOT, m.source), 'utf8');
  const sf = ts.createSourceFile(m.source, text, ts.ScriptTarget.Latest, false);
  const literals = [];
  const walk = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literals.push(node.text);
    else if (ts.isTemplateExpression(node)) literals.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? '));
    ts.forEachChild(node, walk);
  };
  walk(sf);
  for (const sql of literals) {
    if (!SQL_WORDS.test(sql)) continue;
    for (const [, name] of sql.matchAll(TABLE_REF)) {
      const table = name.toLowerCase();
      if (!TABLES.has(table)) continue;
      const owner = OWNERS.tables[table];
      if (owner === folder) continue;
      const key = `${m.source} uses ${table} (${owner}'s)`;
      if (!sqlFindings.has(key)) sqlFindings.set(key, folder);
    }
  }
}
// Every table the migrations create has an owner.
const migrations = readMigrationTables();
function readMigrationTables() {
  const dir = path.join(ROOT, SRC, 'database/migrations');
  const names = new Set();
  for (const f of ts.sys.readDirectory(dir, ['.ts'])) {
    for (const [, n] of readFileSync(f, 'utf8').matchAll(/create table (?:if not exists )?"?([a-z_0-9]+)"?/gi)) names.add(n.toLowerCase());
  }
  return [...names];
}
for (const t of migrations) if (!TABLES.has(t)) unknownTables.add(t);

// Against the baseline.
const allowedEdges = new Set(baseline.cyclicFolderEdges);
const allowedSql = new Set(baseline.sqlOutsideOwner);
const newEdges = cyclic.filter((e) => !allowedEdges.has(e));
const newSql = [...sqlFindings.keys()].filter((k) => !allowedSql.has(k));
const goneEdges = [...allowedEdges].filter((e) => !cyclic.includes(e));
const goneSql = [...allowedSql].filter((k) => !sqlFindings.has(k));

if (update) {
  writeFileSync(
    BASELINE_FILE,
    `${JSON.stringify({ ...baseline, cyclicFolderEdges: cyclic.sort(), sqlOutsideOwner: [...sqlFindings.keys()].sort() }, null, 2)}\n`,
  );
  console.log(`baseline rewritten: ${cyclic.length} folder edges inside cycles, ${sqlFindings.size} SQL uses outside their owner`);
  process.exit(0);
}

let failed = false;
for (const e of newEdges) {
  const [a, b] = e.split(' -> ');
  console.error(`architecture: a new import closes a cycle between backend folders: ${[a, ...pathBetween(b, a)].join(' -> ')}\n  (${edges.get(e)})`);
  failed = true;
}
for (const k of newSql) {
  console.error(`architecture: SQL on another module's table outside a *.query.ts file: ${k}, from ${sqlFindings.get(k)}; read it through the owner's service, or move the read into a query file`);
  failed = true;
}
for (const t of unknownTables) {
  console.error(`architecture: table ${t} has no owner in scripts/architecture.json`);
  failed = true;
}
const cycles = new Set(cyclic.map((e) => comp.get(e.split(' -> ')[0]))).size;
console.log(
  `architecture: ${files.length} backend files, ${edges.size} folder edges, ${cyclic.length} inside ${cycles} cycle(s) (baseline ${allowedEdges.size}); ` +
    `${sqlFindings.size} SQL uses of another module's tables outside query files (baseline ${allowedSql.size})`,
);
if (goneEdges.length || goneSql.length)
  console.log(`architecture: ${goneEdges.length + goneSql.length} baseline exception(s) no longer occur; remove them (--update-baseline): ${[...goneEdges, ...goneSql].join('; ')}`);
process.exit(failed ? 1 : 0);
