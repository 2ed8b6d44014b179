import { existsSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeStaleSpools } from './upload-spool.js';

describe('removeStaleSpools', () => {
  it("removes only upload spool files and files:migrate's copies older than the limit", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-test-'));
    const stale = join(dir, 'pdm-upload-stale');
    const fresh = join(dir, 'pdm-upload-fresh');
    const staleCopy = join(dir, 'pdm-migrate-12345-stale');
    const freshCopy = join(dir, 'pdm-migrate-12345-fresh');
    const other = join(dir, 'someone-elses-file');
    for (const f of [stale, fresh, staleCopy, freshCopy, other]) writeFileSync(f, 'x');
    const twoDaysAgo = (Date.now() - 2 * 24 * 3600 * 1000) / 1000;
    for (const f of [stale, staleCopy, other]) utimesSync(f, twoDaysAgo, twoDaysAgo);

    expect(await removeStaleSpools(24 * 3600 * 1000, dir)).toBe(2);
    expect([stale, fresh, staleCopy, freshCopy, other].map((f) => existsSync(f))).toEqual([
      false,
      true,
      false,
      true,
      true,
    ]);
  });
});
