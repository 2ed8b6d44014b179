import { rejection } from '../qml-rejection.fixtures.js';
import { buildQuery, compileTemplate } from '../qml-compiler.js';
import type { JoinDecl, QmlTemplate } from './ast.js';

const TASK = 'wt.change2.WTChangeActivity2';
const NOTICE = 'wt.change2.WTChangeOrder2';

/** Tables (alias → class), and one linkJoin naming `link` between `first` and `second`. */
function doc(tables: Record<string, string>, link: string, first: string, second: string): string {
  const from = Object.entries(tables)
    .map(([alias, cls]) => `<table alias="${alias}">${cls}</table>`)
    .join('');
  const select = Object.keys(tables)
    .map((alias) => `<column alias="${alias}" heading="${alias}">thePersistInfo.theObjectIdentifier.id</column>`)
    .join('');
  const join = `<join name="${link}"><aliasTarget alias="${first}"/><aliasTarget alias="${second}"/></join>`;
  return `<qml><statement><query><select>${select}</select><from>${from}</from><linkJoin>${join}</linkJoin></query></statement></qml>`;
}

/** The link join of a template as role A alias → role B alias. */
function roles(t: QmlTemplate): [string, string] {
  const j = t.joins[0] as Extract<JoinDecl, { k: 'link' }>;
  return [t.tables[j.a].alias, t.tables[j.b].alias];
}

const reason = (xml: string) => rejection(() => compileTemplate(xml));

const req = {
  values: {},
  user: { id: 2, name: 'alice', admin: false },
  readable: [1, 2],
  now: new Date('2026-05-06T00:00:00Z'),
  limit: 10,
};

describe('linkJoin: the two aliases matched to the link’s roles', () => {
  const tables = { Notice: NOTICE, Task: TASK };

  it('takes the aliases in the order of the roles (a change notice is role A of IncludedIn2, as in Windchill)', () => {
    expect(roles(compileTemplate(doc(tables, 'wt.change2.IncludedIn2', 'Notice', 'Task')))).toEqual(['Notice', 'Task']);
  });

  it('matches them by class when a template names them the other way round', () => {
    expect(roles(compileTemplate(doc(tables, 'wt.change2.IncludedIn2', 'Task', 'Notice')))).toEqual(['Notice', 'Task']);
  });

  it('plans the same query for both orders', () => {
    const sql = (first: string, second: string) =>
      buildQuery(compileTemplate(doc(tables, 'wt.change2.IncludedIn2', first, second)), req).sql;
    expect(sql('Notice', 'Task')).toEqual(sql('Task', 'Notice'));
  });

  it('gives the role that only one end fits to that end, the other to the end that fits both', () => {
    // An iteration of any class fits both roles of AffectedActivityData; a part only role B.
    const mixed = { Any: 'wt.vc.Iterated', Part: 'wt.part.WTPart' };
    const link = 'wt.change2.AffectedActivityData';
    expect(roles(compileTemplate(doc(mixed, link, 'Part', 'Any')))).toEqual(['Any', 'Part']);
    expect(roles(compileTemplate(doc(mixed, link, 'Any', 'Part')))).toEqual(['Any', 'Part']);
  });

  it('lets the order decide when both ends fit both roles: the first alias is role A', () => {
    const both = { X: 'wt.vc.Iterated', Y: 'wt.vc.Iterated' };
    const link = 'wt.change2.AffectedActivityData';
    expect(roles(compileTemplate(doc(both, link, 'X', 'Y')))).toEqual(['X', 'Y']);
    expect(roles(compileTemplate(doc(both, link, 'Y', 'X')))).toEqual(['Y', 'X']);
  });

  it('answers 400 naming both classes and the roles when neither order fits', () => {
    const wrong = { Doc: 'wt.doc.WTDocument', Master: 'wt.part.WTPartMaster' };
    expect(reason(doc(wrong, 'wt.change2.IncludedIn2', 'Doc', 'Master'))).toBe(
      '/qml/statement/query/linkJoin/join[1]: link wt.change2.IncludedIn2 cannot join wt.doc.WTDocument and wt.part.WTPartMaster, in either order: it links wt.change2.WTChangeOrder2 (role A) to wt.change2.WTChangeActivity2 (role B)',
    );
  });

  it('answers 400 when only one end fits a role', () => {
    const half = { Task: TASK, Doc: 'wt.doc.WTDocument' };
    expect(reason(doc(half, 'wt.change2.IncludedIn2', 'Doc', 'Task'))).toBe(
      '/qml/statement/query/linkJoin/join[1]: link wt.change2.IncludedIn2 cannot join wt.doc.WTDocument and wt.change2.WTChangeActivity2, in either order: it links wt.change2.WTChangeOrder2 (role A) to wt.change2.WTChangeActivity2 (role B)',
    );
  });
});

describe('referenceJoin through the roles of IncludedIn2, as Windchill exports it', () => {
  /** The link as a table, joined to its two ends by roleAObjectRef and roleBObjectRef. */
  const exported = (roleA: string, roleB: string) =>
    `<qml><statement><query>
      <select><column alias="Change Notice" heading="Notice">number</column><column alias="Change Task" heading="Task">number</column></select>
      <from><table alias="Link">wt.change2.IncludedIn2</table><table alias="Change Notice">${NOTICE}</table><table alias="Change Task">${TASK}</table></from>
      <referenceJoin>
        <join name="roleAObjectRef"><aliasTarget alias="Link"/><aliasTarget alias="${roleA}"/></join>
        <join name="roleBObjectRef"><aliasTarget alias="Link"/><aliasTarget alias="${roleB}"/></join>
      </referenceJoin></query></statement></qml>`;

  it('compiles role A to the change notice and role B to the change task', () => {
    const t = compileTemplate(exported('Change Notice', 'Change Task'));
    expect(
      t.joins.map((j) => j.k === 'reference' && [j.ref.name, t.tables[j.from].alias, t.tables[j.to].alias]),
    ).toEqual([
      ['roleAObjectRef', 'Link', 'Change Notice'],
      ['roleBObjectRef', 'Link', 'Change Task'],
    ]);
    // The link is t1, the notice t2, the task t3.
    expect(buildQuery(t, req).sql.text).toContain('"t1"."role_a_id" = "t2"."id" AND "t1"."role_b_id" = "t3"."id"');
  });

  it('refuses role A to the change task (400), naming the reference and the classes', () => {
    expect(reason(exported('Change Task', 'Change Notice'))).toBe(
      `/qml/statement/query/referenceJoin/join[1]: reference "roleAObjectRef" of wt.change2.IncludedIn2 cannot point to ${TASK} (it points to ${NOTICE})`,
    );
  });
});

describe('linkJoin: files of a content holder that is no iteration', () => {
  const DERIVED = 'wt.viewmarkup.DerivedImage';
  const FILE = 'wt.content.ApplicationData';

  it('joins a derived image to no file, in either order, with a warning saying why', () => {
    for (const [first, second] of [
      ['I', 'F'],
      ['F', 'I'],
    ]) {
      const t = compileTemplate(doc({ I: DERIVED, F: FILE }, 'wt.content.HolderToContent', first, second));
      expect(roles(t)).toEqual(['I', 'F']);
      expect(t.warnings).toEqual([
        {
          path: '/qml/statement/query/linkJoin/join[1]',
          message: `${DERIVED} holds files in Windchill, but files are kept on iterations here: this join finds none`,
        },
      ]);
      expect(buildQuery(t, req).sql.text).toMatch(/\bFALSE\b/);
    }
  });

  it('still answers 400 for a class that holds no files', () => {
    expect(reason(doc({ V: 'wt.vc.views.View', F: FILE }, 'wt.content.HolderToContent', 'V', 'F'))).toBe(
      `/qml/statement/query/linkJoin/join[1]: link wt.content.HolderToContent cannot join wt.vc.views.View and ${FILE}, in either order: it links wt.vc.Iterated (role A) to ${FILE} (role B)`,
    );
  });
});
