import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const COMMITTED = join(process.cwd(), 'src', 'swagger-metadata.generated.ts');

/**
 * src/swagger-metadata.generated.ts is what the Swagger plugin reads from the DTO sources, loaded
 * before the OpenAPI document is built. `npm run build` rewrites it; this test fails when a DTO
 * changed and the committed file was not regenerated (the tests run the sources, not the build).
 */
describe('src/swagger-metadata.generated.ts', () => {
  it('is what scripts/swagger-metadata.mjs generates from the DTO sources', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swagger-metadata-'));
    try {
      const out = join(dir, 'swagger-metadata.generated.ts');
      const { stderr } = await promisify(execFile)(process.execPath, ['scripts/swagger-metadata.mjs', out]);
      expect(stderr).toBe('');
      expect(readFileSync(COMMITTED, 'utf8')).toBe(readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
