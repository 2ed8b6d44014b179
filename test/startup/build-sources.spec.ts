import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beginBuild, finishBuild, staleReason } from '../../scripts/build-sources.mjs';

/**
 * When `npm start`, `npm run import` and `npm run files:migrate` build first
 * (scripts/build-if-changed.mjs): only when a source differs from what the last complete
 * `npm run build` was made from, or an output is missing.
 */
describe('staleReason (build only when sources changed)', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  /** A project as `npm run build` leaves it. */
  function built() {
    beginBuild(root);
    for (const output of ['dist/src/main.js', 'src/generated/prisma/client.ts', 'build-info.json']) write(output, 'x');
    write('src/swagger-metadata.generated.ts', 'written by the build');
    finishBuild(root);
  }

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pdm-build-'));
    write('src/main.ts', 'main');
    write('src/files/files.service.ts', 'files');
    write('prisma/schema.prisma', 'model A {}');
    write('prisma/migrations/1_init/migration.sql', 'CREATE TABLE a ()');
    write('catalog/standard/00-foundation.json', '{}');
    write('scripts/build-info.mjs', 'info');
    write('package.json', '{}');
    write('docs/files.md', '# Files');
    write('README.md', '# PDM');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds a project never built', () => {
    expect(staleReason(root)).toBe('dist/src/main.js is missing');
  });

  it('does not build again when no source changed', () => {
    built();
    expect(staleReason(root)).toBeNull();
  });

  it.each([
    ['src/files/files.service.ts', 'changed'],
    ['prisma/schema.prisma', 'changed'],
    ['catalog/standard/00-foundation.json', 'changed'],
    ['scripts/build-info.mjs', 'changed'],
    ['package.json', 'changed'],
    ['src/files/new.ts', 'added'],
    ['catalog/standard/10-more.json', 'added'],
  ])('builds when %s is %s', (path, how) => {
    built();
    write(path, 'new content');
    expect(staleReason(root)).toBe(`${path} ${how}`);
  });

  it('builds when a source was removed, and names how many changed', () => {
    built();
    unlinkSync(join(root, 'src/main.ts'));
    write('src/files/files.service.ts', 'other');
    expect(staleReason(root)).toBe('src/files/files.service.ts changed, and 1 more');
  });

  it('decides by content: a file written again as it was is no change', () => {
    built();
    write('src/main.ts', 'main'); // the same content, a newer time: nothing to build
    expect(staleReason(root)).toBeNull();
    write('src/main.ts', 'niam');
    expect(staleReason(root)).toBe('src/main.ts changed');
  });

  it('does not build for what the build writes or does not read', () => {
    built();
    write('src/swagger-metadata.generated.ts', 'written again');
    write('src/generated/prisma/models.ts', 'generated');
    write('src/files/files.service.spec.ts', 'a test');
    write('prisma/migrations/2_more/migration.sql', 'ALTER TABLE a');
    write('docs/files.md', '# Files, changed');
    write('README.md', '# changed');
    expect(staleReason(root)).toBeNull();
  });

  it('builds when an output is missing, or the last build did not finish', () => {
    built();
    unlinkSync(join(root, 'src/generated/prisma/client.ts'));
    expect(staleReason(root)).toBe('src/generated/prisma/client.ts is missing');
    built();
    beginBuild(root); // a build that failed or was stopped
    expect(staleReason(root)).toBe('no complete build is recorded');
  });

  it('builds again when a source changed while the build ran', () => {
    beginBuild(root);
    write('src/main.ts', 'edited during the build');
    for (const output of ['dist/src/main.js', 'src/generated/prisma/client.ts', 'build-info.json']) write(output, 'x');
    finishBuild(root);
    expect(staleReason(root)).toBe('src/main.ts changed');
  });
});
