// What a build is made from, and the record of what the last complete `npm run build` was made
// from (dist/.build-sources.json: each source file's SHA-256). `npm start`, `npm run import` and
// `npm run files:migrate` build only when a source differs from that record (build-if-changed.mjs):
// a full build takes a minute, and starting the built service a few seconds.
//
//   node scripts/build-sources.mjs begin   (first step of npm run build: the sources it builds from)
//   node scripts/build-sources.mjs done    (last step: the build is complete)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders and files `npm run build` reads (tsconfig.build.json, prisma generate, the scripts it runs). */
export const SOURCES = [
  'src',
  'scripts',
  'bench',
  'catalog',
  'prisma/schema.prisma',
  'prisma/seed.ts',
  'prisma.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** Under SOURCES, what the build writes or leaves out (tsconfig.build.json's exclude). */
const NOT_SOURCES = [
  /^src\/generated\//,
  /^src\/swagger-metadata\.generated\.ts$/,
  /^bench\/results\//,
  /\.spec\.ts$/,
  /\.fixtures\.ts$/,
];

/** What the commands run; missing, the project is built whatever the record says. */
export const OUTPUTS = ['dist/src/main.js', 'src/generated/prisma/client.ts', 'build-info.json'];

export const RECORD = 'dist/.build-sources.json';
const PENDING = 'dist/.build-sources.pending.json';

/** Each source file (path relative to `root`, with `/`) and the SHA-256 of its content, in path order. */
export function sourceHashes(root) {
  const files = [];
  const walk = (path) => {
    const rel = relative(root, path).split(sep).join('/');
    if (NOT_SOURCES.some((re) => re.test(rel))) return;
    let entries;
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch (e) {
      if (e.code === 'ENOTDIR') files.push(rel);
      else if (e.code !== 'ENOENT') throw e;
      return;
    }
    for (const entry of entries) walk(join(path, entry.name));
  };
  for (const source of SOURCES) walk(join(root, source));
  files.sort();
  const hashes = {};
  for (const file of files)
    hashes[file] = createHash('sha256')
      .update(readFileSync(join(root, file)))
      .digest('hex');
  return hashes;
}

/** Why the project at `root` must be built before its compiled code runs, or null when it need not. */
export function staleReason(root) {
  const missing = OUTPUTS.find((output) => !existsSync(join(root, output)));
  if (missing) return `${missing} is missing`;
  let built;
  try {
    built = JSON.parse(readFileSync(join(root, RECORD), 'utf8'));
  } catch {
    return 'no complete build is recorded';
  }
  const now = sourceHashes(root);
  const changed = [
    ...Object.keys(now)
      .filter((f) => built[f] !== now[f])
      .map((f) => `${f} ${f in built ? 'changed' : 'added'}`),
    ...Object.keys(built)
      .filter((f) => !(f in now))
      .map((f) => `${f} removed`),
  ];
  if (changed.length === 0) return null;
  return changed.length === 1 ? changed[0] : `${changed[0]}, and ${changed.length - 1} more`;
}

/**
 * First step of a build: notes the sources it is made from (a file changed while it runs makes the
 * next check build again), and drops the record of the last build until this one is complete.
 */
export function beginBuild(root) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  rmSync(join(root, RECORD), { force: true });
  writeFileSync(join(root, PENDING), JSON.stringify(sourceHashes(root), null, 1) + '\n');
}

/** Last step of a build: it is complete. */
export function finishBuild(root) {
  renameSync(join(root, PENDING), join(root, RECORD));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const step = process.argv[2];
  if (step === 'begin') beginBuild(root);
  else if (step === 'done') finishBuild(root);
  else {
    console.error('usage: node scripts/build-sources.mjs begin|done');
    process.exit(2);
  }
}
