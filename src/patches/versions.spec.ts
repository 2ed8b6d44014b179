import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  accepted,
  checkPatchedVersions,
  checkPatchedVersionsOf,
  installedVersion,
  PATCHED_VERSIONS,
} from './versions.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const packageVersion = (pkg: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

describe('checkPatchedVersions', () => {
  it('passes on the versions installed', () => {
    expect(() => checkPatchedVersions()).not.toThrow();
  });

  it('names the package, the version found and the one the patch was written for', () => {
    const installed = (pkg: string) => (pkg === 'pg' ? '8.24.0' : installedVersion(pkg));
    expect(() => checkPatchedVersions(PATCHED_VERSIONS, installed)).toThrow(
      'pg 8.24.0 is installed, but src/patches/pg-name-types-as-text.ts was written for pg 8.23.1 (accepted: 8.23.x);\n' +
        'pg 8.24.0 is installed, but src/patches/pg-parsed-statements.ts was written for pg 8.23.1 (accepted: 8.23.x);\n' +
        'pg 8.24.0 is installed, but src/patches/pg-drop-connection.ts was written for pg 8.23.1 (accepted: 8.23.x).\n' +
        'Check each patch against the installed version',
    );
  });

  it("fails on a Node major the socket patch was not checked on, and on another 0.x package's patch release", () => {
    const node26 = (pkg: string) => (pkg === 'node' ? '26.0.0' : installedVersion(pkg));
    expect(() => checkPatchedVersions(PATCHED_VERSIONS, node26)).toThrow(
      /^node 26\.0\.0 is installed, but src\/patches\/node-socket-destroy-soon\.ts was written for node 20\.20\.2 \(accepted: 20\.x, 22\.x, 24\.x\)\./,
    );
    const socket = (pkg: string) => (pkg === '@electric-sql/pglite-socket' ? '0.2.18' : installedVersion(pkg));
    expect(() => checkPatchedVersions(PATCHED_VERSIONS, socket)).toThrow(
      /^@electric-sql\/pglite-socket 0\.2\.18 is installed, but .* \(accepted: 0\.2\.17\)\./,
    );
  });

  it('checks only the patches named, and refuses a name it does not know', () => {
    expect(() => checkPatchedVersionsOf('pg-name-types-as-text', 'adapter-pg-shadow-database')).not.toThrow();
    expect(() => checkPatchedVersionsOf('pg-nothing')).toThrow('src/patches/versions.ts: no patch pg-nothing');
  });
});

describe('accepted', () => {
  it('takes a prefix at a dot boundary only', () => {
    expect(accepted('6.19.3', ['6.19'])).toBe(true);
    expect(accepted('6.19.0', ['6.19'])).toBe(true);
    expect(accepted('6.190.0', ['6.19'])).toBe(false);
    expect(accepted('6.20.0', ['6.19'])).toBe(false);
    expect(accepted('7.0.0', ['6.19'])).toBe(false);
    expect(accepted('22.11.0', ['20', '22'])).toBe(true);
    expect(accepted('0.2.17', ['0.2.17'])).toBe(true);
    expect(accepted('0.2.170', ['0.2.17'])).toBe(false);
  });
});

describe('installedVersion', () => {
  it("reads the package.json of packages that do not export it, and Node's own version", () => {
    const require = createRequire(import.meta.url);
    expect(() => require('@electric-sql/pglite-socket/package.json')).toThrow(/not exported|Cannot find module/);
    for (const pkg of ['@electric-sql/pglite-socket', '@prisma/adapter-pg', 'pg', 'prisma'])
      expect(installedVersion(pkg)).toBe(packageVersion(pkg));
    expect(installedVersion('node')).toBe(process.versions.node);
    expect(() => installedVersion('no-such-package-here')).toThrow('no-such-package-here is not installed');
  });
});

describe('src/patches', () => {
  const files = readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
  const patches = files.filter((f) => !['versions.ts', 'patch-error.ts'].includes(f)).map((f) => f.slice(0, -3));

  it('lists every patch in versions.ts, once', () => {
    expect(PATCHED_VERSIONS.map((p) => p.patch).sort()).toEqual(patches.sort());
  });

  it('opens each patch with the package and version it was written for, what it touches, why, and when it can go', () => {
    for (const p of PATCHED_VERSIONS) {
      const header = readFileSync(join(here, `${p.patch}.ts`), 'utf8').split('*/')[0];
      const name = p.package === 'node' ? 'Node.js' : p.package;
      expect({ patch: p.patch, header }).toEqual({
        patch: p.patch,
        header: expect.stringMatching(new RegExp(`^/\\*\\*\\n \\* Patch of (the )?${name.replace(/[./]/g, '\\$&')}`)),
      });
      expect(header).toContain(`written for ${p.writtenFor}`);
      for (const part of [' * Touches: ', ' * Why: ', ' * Remove when: ']) expect(header).toContain(part);
    }
  });
});
