import type { Catalog } from '../catalog/catalog.js';
import type { QmlTemplate } from '../qml/qml-compiler.js';
import { TemplateCache } from './template-cache.js';

const catalogA = {} as Catalog;
const catalogB = {} as Catalog;

/** A compile function that counts its calls and returns a template of `catalog`. */
function compiler(catalog: Catalog) {
  const c = { calls: 0, compile: () => (c.calls++, { catalog } as unknown as QmlTemplate) };
  return c;
}

describe('TemplateCache', () => {
  it('keeps a stored template while its QML and the catalog are unchanged, and forgets a deleted one', () => {
    const cache = new TemplateCache();
    const a = compiler(catalogA);
    const first = cache.storedTemplate(1, '<qml/>', catalogA, a.compile);
    expect(cache.storedTemplate(1, '<qml/>', catalogA, a.compile)).toBe(first);
    expect(a.calls).toBe(1);
    cache.storedTemplate(1, '<qml></qml>', catalogA, a.compile);
    expect(a.calls).toBe(2);
    const b = compiler(catalogB);
    cache.storedTemplate(1, '<qml></qml>', catalogB, b.compile);
    expect(b.calls).toBe(1);
    cache.forget(1);
    cache.storedTemplate(1, '<qml></qml>', catalogB, b.compile);
    expect(b.calls).toBe(2);
  });

  it('keeps inline documents by their text, not the longest ones, and recompiles after a catalog change', () => {
    const cache = new TemplateCache();
    const a = compiler(catalogA);
    const first = cache.inlineTemplate('<qml/>', catalogA, a.compile);
    expect(cache.inlineTemplate('<qml/>', catalogA, a.compile)).toBe(first);
    expect(a.calls).toBe(1);
    const long = `<qml>${' '.repeat(64 * 1024)}</qml>`;
    cache.inlineTemplate(long, catalogA, a.compile);
    cache.inlineTemplate(long, catalogA, a.compile);
    expect(a.calls).toBe(3);
    const b = compiler(catalogB);
    cache.inlineTemplate('<qml/>', catalogB, b.compile);
    expect(b.calls).toBe(1);
  });

  it('drops the least recently used inline documents past 200', () => {
    const cache = new TemplateCache();
    const a = compiler(catalogA);
    for (let i = 0; i < 201; i++) cache.inlineTemplate(`<qml n="${i}"/>`, catalogA, a.compile);
    expect(a.calls).toBe(201);
    cache.inlineTemplate('<qml n="200"/>', catalogA, a.compile);
    expect(a.calls).toBe(201);
    cache.inlineTemplate('<qml n="0"/>', catalogA, a.compile);
    expect(a.calls).toBe(202);
  });
});
