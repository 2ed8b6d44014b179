import { buildQuery, compileTemplate } from '../qml-compiler.js';
import { req } from '../layouts/query/query-layout.fixtures.js';

const STAMPS = ['thePersistInfo.createStamp', 'thePersistInfo.modifyStamp', 'thePersistInfo.updateStamp'];

/** The stamps of the used part master (M) and of the usage link (L) naming it. */
const TEMPLATE = `<qml><statement><query>
  <select>
    ${STAMPS.map((s) => `<column alias="M" type="java.sql.Timestamp">${s}</column>`).join('')}
    ${STAMPS.map((s) => `<column alias="L" type="java.sql.Timestamp">${s}</column>`).join('')}
  </select>
  <from><table alias="L">wt.part.WTPartUsageLink</table><table alias="M">wt.part.WTPartMaster</table></from>
  <referenceJoin><join name="roleBObjectRef"><aliasTarget alias="L"/><aliasTarget alias="M"/></join></referenceJoin>
</query></statement></qml>`;

describe('the stamps of masters and usage links', () => {
  it('reads createStamp from created_at and modifyStamp and updateStamp from modified_at of masters and usage_links', () => {
    const { sql: s, columns } = buildQuery(compileTemplate(TEMPLATE), req);
    expect(columns.map((c) => c.type)).toEqual(Array(6).fill('timestamp'));
    expect(s.text.split('\n')[0]).toBe(
      'SELECT "t2"."created_at" AS "c1", "t2"."modified_at" AS "c2", "t2"."modified_at" AS "c3", ' +
        '"t1"."created_at" AS "c4", "t1"."modified_at" AS "c5", "t1"."modified_at" AS "c6"',
    );
    expect(s.text).toContain('FROM "usage_links" "t1"');
    expect(s.text).toContain('"masters" "t2"');
  });

  it('reads them on every class stored as a master or a usage link', () => {
    for (const cls of ['wt.doc.WTDocumentMaster', 'wt.epm.EPMDocumentMaster', 'wt.epm.structure.EPMMemberLink']) {
      const xml = `<qml><statement><query><select>
        ${STAMPS.map((s) => `<column alias="X">${s}</column>`).join('')}
        </select><from><table alias="X">${cls}</table></from></query></statement></qml>`;
      const first = buildQuery(compileTemplate(xml), req).sql.text.split('\n')[0];
      expect([cls, first]).toEqual([
        cls,
        'SELECT "t1"."created_at" AS "c1", "t1"."modified_at" AS "c2", "t1"."modified_at" AS "c3"',
      ]);
    }
  });
});
