import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { buildQuery, compileTemplate, QmlError } from './qml-compiler.js';

const templates = (
  JSON.parse(readFileSync(new URL('../../prisma/demo-dataset.json', import.meta.url), 'utf8')) as {
    reports: { qml: string }[];
  }
).reports
  .map((r) => r.qml)
  // Templates in the qml/query layout (Windchill 10 and later).
  .concat(
    readdirSync(new URL('../../docs/examples/', import.meta.url))
      .filter((f) => f.startsWith('query-layout-'))
      .map((f) => readFileSync(new URL(`../../docs/examples/${f}`, import.meta.url), 'utf8')),
  );

const REQUEST = {
  values: { Number: '0*', Text: 'x', State: 'INWORK' },
  user: { id: 2, name: 'alice', admin: false },
  readable: [1],
  now: new Date('2026-05-06T00:00:00Z'),
  limit: 10,
};

/** A document mutated at one place: a cut, an insertion, or a duplicated slice. */
const mutated = fc
  .tuple(
    fc.constantFrom(...templates),
    fc.nat(),
    fc.nat({ max: 40 }),
    fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('<', '>', '&', '"', '<!ENTITY x "y">', '</qml>', '<qml>')),
    fc.constantFrom('cut', 'insert', 'duplicate'),
  )
  .map(([doc, at, len, text, how]) => {
    const i = at % doc.length;
    if (how === 'cut') return doc.slice(0, i) + doc.slice(i + len);
    if (how === 'insert') return doc.slice(0, i) + text + doc.slice(i);
    return doc.slice(0, i + len) + doc.slice(i, i + len) + doc.slice(i + len);
  });

function compilesOrRejectsCleanly(doc: string | Uint8Array): void {
  try {
    buildQuery(compileTemplate(doc), REQUEST);
  } catch (e) {
    if (!(e instanceof QmlError)) throw e;
  }
}

describe('QML compiler under random input', () => {
  it('never fails with anything but a QmlError on mutated templates', () => {
    fc.assert(
      fc.property(mutated, (doc) => compilesOrRejectsCleanly(doc)),
      { numRuns: 2000 },
    );
  });

  it('never fails with anything but a QmlError on arbitrary text and bytes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (doc) => compilesOrRejectsCleanly(doc)),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => compilesOrRejectsCleanly(bytes)),
      { numRuns: 1000 },
    );
  });

  it('rejects deeply nested documents without exhausting the stack', () => {
    const deep = `<qml>${'<a>'.repeat(20000)}${'</a>'.repeat(20000)}</qml>`;
    expect(() => compileTemplate(deep)).toThrow(QmlError);
  });
});
