#!/usr/bin/env node
// The layering rules of docs/architecture.md, checked on the sources (run by `npm run lint`):
//
// 1. No import cycles between modules (the top-level folders of src/): the import graph comes
//    from dependency-cruiser (type-only imports included), collapsed to those folders.
// 2. SQL only where the data layer is: repositories (`*.repository.ts`), the database handle
//    and its migrations (src/prisma/), library patches (src/patches/) and the two compilers
//    whose output is SQL (src/qml/sql/, src/query/q/). Anywhere else a string that starts a
//    statement, or a raw-query call, is a violation.
// 3. One transaction helper: BEGIN / COMMIT / ROLLBACK and Prisma's $transaction only in
//    src/prisma/ (PrismaService.transaction), nowhere else.
// 4. Only configuration and the database are global Nest modules.
//
// `node scripts/check-architecture.mjs --report` prints the measures without failing.
import { readFileSync } from 'node:fs';
import { cruise } from 'dependency-cruiser';
import ts from 'typescript';

const report = process.argv.includes('--report');

const GLOBAL_MODULES = ['src/config/config.module.ts', 'src/prisma/prisma.module.ts'];
const SQL_ALLOWED = [
  /\.repository\.ts$/,
  /^src\/prisma\//,
  /^src\/patches\//,
  /^src\/qml\/sql\//,
  /^src\/query\/q\//,
  /\.spec\.ts$/,
  /\.fixtures\.ts$/,
  /^src\/generated\//,
];
/** A literal that begins a statement: an upper-case keyword, then a space or the end of the line. */
const STATEMENT =
  /^\s*(SELECT|WITH|INSERT INTO|UPDATE|DELETE FROM|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|LISTEN|UNLISTEN|NOTIFY|COPY|LOCK TABLE|SET (LOCAL |SESSION )?[a-z_]+|CREATE|DROP|ALTER|TRUNCATE|VACUUM|ANALYZE)(\s|$)/;
/** A literal that ends or begins a transaction, or a call of Prisma's own transactions. */
const TRANSACTION = /^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|END)\b/;
const TRANSACTION_ALLOWED = [/^src\/prisma\//, /^src\/patches\//, /\.spec\.ts$/, /^src\/generated\//];
const RAW_CALLS = new Set(['$queryRaw', '$executeRaw', '$queryRawUnsafe', '$executeRawUnsafe', '$queryRawTyped']);

const result = await cruise(['src'], {
  exclude: { path: '^src/generated/' },
  doNotFollow: { path: 'node_modules' },
  tsPreCompilationDeps: true,
  tsConfig: { fileName: 'tsconfig.json' },
  enhancedResolveOptions: { extensions: ['.ts', '.js'] },
});
const modules = result.output.modules.filter((m) => m.source.startsWith('src/') && m.source.endsWith('.ts'));

const problems = [];

// 1. Module cycles.
const folderOf = (path) => {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1] : null;
};
const edges = new Map();
const examples = new Map();
for (const m of modules) {
  const from = folderOf(m.source);
  if (!from) continue;
  for (const d of m.dependencies) {
    const to = folderOf(d.resolved);
    if (!to || to === from || to === 'generated' || !d.resolved.startsWith('src/')) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
    const key = `${from}->${to}`;
    if (!examples.has(key)) examples.set(key, `${m.source} imports ${d.resolved}`);
  }
}
const cycles = stronglyConnected(edges).filter((c) => c.length > 1);
for (const cycle of cycles) {
  const inCycle = new Set(cycle);
  const lines = [...examples].filter(([k]) => {
    const [a, b] = k.split('->');
    return inCycle.has(a) && inCycle.has(b);
  });
  problems.push(
    `modules import each other: ${cycle.sort().join(', ')}\n${lines.map(([k, v]) => `    ${k}: ${v}`).join('\n')}`,
  );
}

// 2. SQL outside the data layer.
let sqlFiles = 0;
for (const m of modules) {
  if (SQL_ALLOWED.some((re) => re.test(m.source))) continue;
  const found = sqlIn(m.source);
  if (found.length === 0) continue;
  sqlFiles += 1;
  problems.push(`SQL outside a repository in ${m.source}:\n${found.map((f) => `    line ${f}`).join('\n')}`);
}

// 3. Transactions.
let transactionFiles = 0;
for (const m of modules) {
  if (TRANSACTION_ALLOWED.some((re) => re.test(m.source))) continue;
  const found = transactionsIn(m.source);
  if (found.length === 0) continue;
  transactionFiles += 1;
  problems.push(
    `a transaction outside PrismaService.transaction in ${m.source}:\n${found.map((f) => `    line ${f}`).join('\n')}`,
  );
}

// 4. Global modules.
const globals = modules
  .filter((m) => m.source.endsWith('.module.ts') && /@Global\(\)/.test(readFileSync(m.source, 'utf8')))
  .map((m) => m.source);
for (const g of globals.filter((g) => !GLOBAL_MODULES.includes(g))) {
  problems.push(`${g} is @Global(): only ${GLOBAL_MODULES.join(' and ')} are; import the module where it is used`);
}

const summary =
  `module cycles ${cycles.length}, files with SQL outside repositories ${sqlFiles}, ` +
  `files with transactions of their own ${transactionFiles}, @Global modules ${globals.length}`;
if (report) {
  for (const p of problems) console.log(p);
  console.log(summary);
} else if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`architecture check failed: ${summary} (see docs/architecture.md)`);
  process.exit(1);
} else {
  console.log(`architecture check passed: ${summary}`);
}

/** The statements and raw-query calls in a source file, as "line: text". */
function sqlIn(path) {
  return literalsAndCalls(path, STATEMENT, RAW_CALLS);
}

/** BEGIN/COMMIT/ROLLBACK literals and Prisma `$transaction` calls in a source file, as "line: text". */
function transactionsIn(path) {
  return literalsAndCalls(path, TRANSACTION, new Set(['$transaction']));
}

/** The string literals of a source file that match `pattern` and the calls of `methods`, as "line: text". */
function literalsAndCalls(path, pattern, methods) {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const hits = [];
  const at = (node, what) => hits.push(`${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) {
      if (pattern.test(node.text)) at(node, node.text.trim().split('\n')[0].slice(0, 60));
    } else if (ts.isPropertyAccessExpression(node) && methods.has(node.name.text)) {
      at(node, node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return hits;
}

/** Tarjan's strongly connected components of a graph given as adjacency sets. */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((s) => [...s])]);
  const strong = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of nodes) if (!index.has(v)) strong(v);
  return components;
}
