import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The version record of every service: { version, build, date }. */
export interface VersionRecord {
  version: string;
  build: number;
  date: string;
}

function findUp(start: string, name: string): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${name} not found above ${start}`);
    dir = parent;
  }
}

let cached: VersionRecord | undefined;

/**
 * version from package.json; build and date from build-info.json, written by `npm run build`
 * (build = number of commits, date = the build's day). Without it: build 0, today.
 */
export function versionRecord(): VersionRecord {
  if (cached) return cached;
  const here = dirname(fileURLToPath(import.meta.url));
  const pkgPath = findUp(here, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string };
  let build = 0;
  let date = new Date().toISOString().slice(0, 10);
  const infoPath = join(dirname(pkgPath), 'build-info.json');
  if (existsSync(infoPath)) {
    const info = JSON.parse(readFileSync(infoPath, 'utf8')) as { build?: number; date?: string };
    if (Number.isSafeInteger(info.build)) build = info.build as number;
    if (typeof info.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(info.date)) date = info.date;
  }
  cached = { version: pkg.version, build, date };
  return cached;
}
