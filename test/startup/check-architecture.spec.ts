import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-architecture.mjs', import.meta.url));
const run = promisify(execFile);

/**
 * scripts/check-architecture.mjs (run by `npm run lint`) on small trees of its own: it passes a
 * tree that keeps the rules and names each rule a tree breaks.
 */
describe('the architecture check', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const check = async (): Promise<{ code: number; out: string }> => {
    try {
      const { stdout } = await run(process.execPath, [SCRIPT], { cwd: root });
      return { code: 0, out: stdout };
    } catch (e) {
      const failed = e as { code: number; stderr: string };
      return { code: failed.code, out: failed.stderr };
    }
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pdm-architecture-'));
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } }));
    write(
      'src/config/config.module.ts',
      "import { Global } from './nest.js';\n@Global()\nexport class ConfigModule {}\n",
    );
    write('src/config/nest.ts', 'export const Global = () => (target: unknown) => target;\n');
    write(
      'src/prisma/prisma.module.ts',
      "import { Global } from '../config/nest.js';\n@Global()\nexport class PrismaModule {}\n",
    );
    write('src/prisma/transactions.ts', "export const begin = 'BEGIN';\n");
    write('src/numbers/numbers.repository.ts', "export const next = 'SELECT next FROM numbering_rules';\n");
    write(
      'src/numbers/numbers.service.ts',
      "import { next } from './numbers.repository.js';\nexport const rule = next;\n",
    );
    write(
      'src/objects/objects.service.ts',
      "import { rule } from '../numbers/numbers.service.js';\nexport const made = rule;\n",
    );
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('passes a tree that keeps the rules', async () => {
    const { code, out } = await check();
    expect(code).toBe(0);
    expect(out).toContain('architecture check passed: module cycles 0, files with SQL outside repositories 0');
  });

  it('names modules that import each other, SQL in a service, a transaction of its own and a third global module', async () => {
    write(
      'src/numbers/numbers.service.ts',
      "import { made } from '../objects/objects.service.js';\nexport const rule = made;\n",
    );
    write(
      'src/objects/objects.service.ts',
      "import { rule } from '../numbers/numbers.service.js';\nexport const made = rule;\nexport const rows = `SELECT id FROM masters`;\n",
    );
    write(
      'src/files/files.service.ts',
      'export const prisma = { $transaction: () => 1 };\nexport const t = prisma.$transaction();\n',
    );
    write(
      'src/auth/auth.module.ts',
      "import { Global } from '../config/nest.js';\n@Global()\nexport class AuthModule {}\n",
    );
    const { code, out } = await check();
    expect(code).toBe(1);
    expect(out).toContain('modules import each other: numbers, objects');
    expect(out).toContain(
      'SQL outside a repository in src/objects/objects.service.ts:\n    line 3: SELECT id FROM masters',
    );
    expect(out).toContain('a transaction outside PrismaService.transaction in src/files/files.service.ts');
    expect(out).toContain('src/auth/auth.module.ts is @Global()');
    expect(out).toContain('architecture check failed: module cycles 1, files with SQL outside repositories 1');
  });
});
