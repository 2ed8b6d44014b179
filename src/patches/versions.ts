import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** One patch of src/patches and the release of the package whose internals it touches. */
export interface PatchedVersion {
  /** The file under src/patches, without `.ts`. */
  patch: string;
  /** The npm package, or `node` for Node.js itself. */
  package: string;
  /** The version the patch was written and tested against. */
  writtenFor: string;
  /**
   * The versions it is accepted on: each a version prefix (`6.19` accepts 6.19.0, 6.19.3 …, not
   * 6.190.0). The project pins exact versions in package.json; a patch release keeps the
   * internals (major.minor), a 0.x package's may not (its exact version), and Node's socket and
   * HTTP server code the socket patch relies on is the same on every major listed.
   */
  accepts: string[];
}

/**
 * Every patch and what it was written for. A new version of one of these packages fails the
 * start (checkPatchedVersions) until the patch is checked against it (see the header of the
 * patch's file) and the version added here, or the patch removed.
 */
export const PATCHED_VERSIONS: readonly PatchedVersion[] = [
  { patch: 'adapter-pg-failed-commit', package: '@prisma/adapter-pg', writtenFor: '6.19.3', accepts: ['6.19'] },
  { patch: 'adapter-pg-shadow-database', package: '@prisma/adapter-pg', writtenFor: '6.19.3', accepts: ['6.19'] },
  { patch: 'pg-name-types-as-text', package: 'pg', writtenFor: '8.23.1', accepts: ['8.23'] },
  { patch: 'pg-parsed-statements', package: 'pg', writtenFor: '8.23.1', accepts: ['8.23'] },
  { patch: 'pg-drop-connection', package: 'pg', writtenFor: '8.23.1', accepts: ['8.23'] },
  {
    patch: 'pglite-socket-connection-handler',
    package: '@electric-sql/pglite-socket',
    writtenFor: '0.2.17',
    accepts: ['0.2.17'],
  },
  { patch: 'node-socket-destroy-soon', package: 'node', writtenFor: '20.20.2', accepts: ['20', '22', '24'] },
  { patch: 'prisma-migrate-deploy-exit', package: 'prisma', writtenFor: '6.19.3', accepts: ['6.19'] },
];

const require = createRequire(import.meta.url);

/**
 * The version of `pkg` this process loads (Node's own for `node`): read from the package.json
 * found where Node resolves the package, as several of them do not export their package.json.
 */
export function installedVersion(pkg: string): string {
  if (pkg === 'node') return process.versions.node;
  for (const dir of require.resolve.paths(pkg) ?? []) {
    const file = join(dir, pkg, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  throw new Error(`${pkg} is not installed`);
}

/** Whether `version` is one of the `accepts` prefixes or starts with one followed by a dot. */
export function accepted(version: string, accepts: readonly string[]): boolean {
  return accepts.some((a) => version === a || version.startsWith(`${a}.`));
}

/**
 * Throws, naming every patch whose package is installed in a version the patch was not written
 * for, the version found and the one it was written for. Run first at start, so a dependency
 * moved to another version fails loudly instead of a patch quietly doing nothing (or harm).
 */
export function checkPatchedVersions(
  patches: readonly PatchedVersion[] = PATCHED_VERSIONS,
  installed: (pkg: string) => string = installedVersion,
): void {
  const problems: string[] = [];
  for (const p of patches) {
    const found = installed(p.package);
    if (accepted(found, p.accepts)) continue;
    const range = p.accepts.map((a) => (a.split('.').length < 3 ? `${a}.x` : a)).join(', ');
    problems.push(
      `${p.package} ${found} is installed, but src/patches/${p.patch}.ts was written for ${p.package} ${p.writtenFor} (accepted: ${range})`,
    );
  }
  if (problems.length === 0) return;
  throw new Error(
    `${problems.join(';\n')}.\nCheck each patch against the installed version (its file's header says what it ` +
      'touches and when it can go), then update src/patches/versions.ts, or install the version it was written for.',
  );
}

/** The check for the given patches only (as prisma.config.ts applies two of them). */
export function checkPatchedVersionsOf(...names: string[]): void {
  for (const name of names) {
    if (!PATCHED_VERSIONS.some((p) => p.patch === name)) throw new Error(`src/patches/versions.ts: no patch ${name}`);
  }
  checkPatchedVersions(PATCHED_VERSIONS.filter((p) => names.includes(p.patch)));
}
