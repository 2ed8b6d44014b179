import { existsSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeStaleSpools } from './upload-spool.js';

describe('removeStaleSpools', () => {
  it('removes only upload spool files older than the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-test-'));
    const stale = join(dir, 'pdm-upload-stale');
    const fresh = join(dir, 'pdm-upload-fresh');
    const other = join(dir, 'someone-elses-file');
    for (const f of [stale, fresh, other]) writeFileSync(f, 'x');
    const twoDaysAgo = (Date.now() - 2 * 24 * 3600 * 1000) / 1000;
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    utimesSync(other, twoDaysAgo, twoDaysAgo);

    expect(await removeStaleSpools(24 * 3600 * 1000, dir)).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });
});
