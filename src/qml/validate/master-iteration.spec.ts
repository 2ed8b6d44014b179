import { rejection } from '../qml-rejection.fixtures.js';
import { CatalogError } from '../../catalog/catalog-model.js';
import { standardCatalog } from '../../catalog/catalog-load.js';
import { buildQuery, compileTemplate } from '../qml-compiler.js';
import type { PlanRequest } from '../plan/plan.js';

const PFD = 'com.ptc.windchill.enterprise.data.PlantFunctionalData';
const LINK = `${PFD}MasterIteration`;

const req: PlanRequest = {
  values: {},
  user: { id: 2, name: 'alice', admin: false },
  readable: [1, 2],
  now: new Date('2026-05-06T00:00:00Z'),
  limit: 10,
};

/** A master table M and an iteration table I joined through `link`, the aliases in the order given. */
function doc(
  order: [string, string],
  opts: { link?: string; master?: string; iteration?: string; outer?: string } = {},
) {
  const master = opts.master ?? `${PFD}Master`;
  const iteration = opts.iteration ?? `WCTYPE|${PFD}|com.acme.AssemblySite`;
  const outer = (alias: string) => (opts.outer === alias ? ` outerJoinAlias="${alias === 'M' ? 'I' : 'M'}"` : '');
  return `<qml><statement><query>
    <select><column alias="M" heading="Number">number</column><column alias="I" heading="Description">description</column></select>
    <from><table alias="M"${outer('M')}>${master}</table><table alias="I"${outer('I')}>${iteration}</table></from>
    <linkJoin><join name="${opts.link ?? LINK}"><aliasTarget alias="${order[0]}"/><aliasTarget alias="${order[1]}"/></join></linkJoin>
  </query></statement></qml>`;
}

const sql = (xml: string) => buildQuery(compileTemplate(xml), req).sql;

const reason = (xml: string) => rejection(() => compileTemplate(xml));

describe('master-iteration links (linkJoin between a master and its iterations)', () => {
  it('declares Windchill’s association and the plant data’s own, role A the master, role B the iterations', () => {
    const std = standardCatalog();
    expect(std.findLink('wt.vc.MasterIteration')).toMatchObject({
      storage: 'masterIteration',
      roles: { a: 'wt.vc.Mastered', b: 'wt.vc.Iterated' },
    });
    expect(std.findLink(LINK)).toMatchObject({
      storage: 'masterIteration',
      parent: 'wt.vc.MasterIteration',
      roles: { a: `${PFD}Master`, b: PFD },
    });
  });

  it('joins every iteration to its master by the master reference, not through a link table', () => {
    const s = sql(doc(['M', 'I']));
    expect(s.text).toBe(
      [
        `SELECT "t1"."number" AS "c1", "t2"."description" AS "c2"`,
        `FROM "masters" "t1"`,
        `CROSS JOIN "iterations" "t2" JOIN "masters" "t2m" ON "t2m"."id" = "t2"."master_id"`,
        `WHERE ("t1"."class" = $1 AND "t1"."container_id" = ANY($2::int4[]) AND "t2m"."class" = $3 AND "t2m"."soft_type" = $4 AND NOT "t2"."working" AND "t2"."master_id" = "t1"."id")`,
        `ORDER BY "t1"."id", "t2"."id"`,
        'LIMIT $5',
      ].join('\n'),
    );
    expect(s.values).toEqual([PFD, [1, 2], PFD, 'com.acme.AssemblySite', 10]);
  });

  it('gives the same query for both orders of the aliases', () => {
    expect(sql(doc(['I', 'M']))).toEqual(sql(doc(['M', 'I'])));
  });

  it('checks access on the iteration itself when its master is outer-joined (not filtered in WHERE)', () => {
    const s = sql(doc(['M', 'I'], { outer: 'M' }));
    expect(s.text).toContain(`"t2m"."container_id" = ANY(`);
    expect(s.text).toContain(`LEFT JOIN "masters" "t1" ON ("t2"."master_id" = "t1"."id" AND "t1"."class" = $`);
  });

  it('takes Windchill’s general association between any master and its own iterations', () => {
    const s = sql(
      doc(['I', 'M'], { link: 'wt.vc.MasterIteration', master: 'wt.part.WTPartMaster', iteration: 'wt.part.WTPart' }),
    );
    expect(s.text).toContain('"t2"."master_id" = "t1"."id"');
    expect(s.values.slice(0, 3)).toEqual(['wt.part.WTPart', [1, 2], 'wt.part.WTPart']);
  });

  it('takes the parts’ association as the query builder names it (wt.part.MasterIteration), for parts only', () => {
    const parts = { link: 'wt.part.MasterIteration', master: 'wt.part.WTPartMaster', iteration: 'wt.part.WTPart' };
    expect(sql(doc(['M', 'I'], parts))).toEqual(sql(doc(['M', 'I'], { ...parts, link: 'wt.vc.MasterIteration' })));
    expect(
      reason(doc(['M', 'I'], { ...parts, master: 'wt.doc.WTDocumentMaster', iteration: 'wt.doc.WTDocument' })),
    ).toContain('wt.part.MasterIteration');
  });

  it('answers 400 for a master that is not the iterations’ own', () => {
    expect(
      reason(
        doc(['M', 'I'], {
          link: 'wt.vc.MasterIteration',
          master: 'wt.part.WTPartMaster',
          iteration: 'wt.doc.WTDocument',
        }),
      ),
    ).toBe(
      '/qml/statement/query/linkJoin/join[1]: link wt.vc.MasterIteration joins iterations to their own master: the master of wt.doc.WTDocument is wt.doc.WTDocumentMaster, not wt.part.WTPartMaster',
    );
  });

  it('answers 400 when an end is of the wrong kind, naming the roles', () => {
    expect(reason(doc(['M', 'I'], { master: 'wt.part.WTPartMaster' }))).toBe(
      `/qml/statement/query/linkJoin/join[1]: link ${LINK} cannot join wt.part.WTPartMaster and ${PFD}, in either order: it links ${PFD}Master (role A) to ${PFD} (role B)`,
    );
  });

  it('answers 400 for the association as a table: it has no rows of its own', () => {
    const xml = `<qml><statement><query><select><column alias="L">thePersistInfo.theObjectIdentifier.id</column></select>
      <from><table alias="L">${LINK}</table></from></query></statement></qml>`;
    expect(reason(xml)).toBe(
      `/qml/statement/query/from/table[1]: ${LINK} is no table: it joins a master to its iterations through their master reference and has no rows of its own; name it in a linkJoin of ${PFD}Master and ${PFD}`,
    );
  });

  it('lets a dataset declare a site’s own association, its role A stored as masters and role B as iterations', () => {
    const declare = (roles: { a: string; b: string }) =>
      standardCatalog().extend(
        [
          {
            where: 'dataset types',
            file: { classes: [{ name: 'com.acme.PartMasterIteration', parent: 'wt.vc.MasterIteration', roles }] },
          },
        ],
        'test',
      );
    expect(
      declare({ a: 'wt.part.WTPartMaster', b: 'wt.part.WTPart' }).findLink('com.acme.PartMasterIteration'),
    ).toBeTruthy();
    let error: unknown;
    try {
      declare({ a: 'wt.part.WTPart', b: 'wt.part.WTPartMaster' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).problems.map((p) => p.message)).toEqual([
      'role A of a masterIteration link is stored as master: wt.part.WTPart is stored as iteration',
      'role B of a masterIteration link is stored as iteration: wt.part.WTPartMaster is stored as master',
    ]);
  });
});
