import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every `.ts` file under `dir`, generated code and specs left out. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('DTO class names', () => {
  // Swagger keys the document's schemas by class name: a second class of the same name replaces
  // the first one's schema for every operation that uses either (with only a warning at start).
  it('are unique across the application', () => {
    const src = join(process.cwd(), 'src');
    const seen = new Map<string, string[]>();
    for (const file of sources(src)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^export (?:abstract )?class (\w+Dto)\b/gm)) {
        seen.set(m[1], [...(seen.get(m[1]) ?? []), relative(src, file)]);
      }
    }
    expect([...seen].filter(([, files]) => files.length > 1)).toEqual([]);
    expect(seen.size).toBeGreaterThan(50);
  });
});
