import request from 'supertest';
import { USERS, type TestApp } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const NOTICE = 'Change Notice (wt.change2.WTChangeOrder2)';
const TASK = 'Change Task (wt.change2.WTChangeActivity2)';

const post = (t: TestApp, body: string, user: readonly [string, string]) =>
  request(t.http)
    .post('/reports?format=json')
    .auth(...user)
    .set('Content-Type', 'text/xml')
    .send(body);

/** Change notices and their tasks through IncludedIn2, its two ends named in the order given. */
function statementLayout(first: string, second: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="${NOTICE}" heading="Change Notice" type="java.lang.String">master&gt;number</column>
        <column alias="${TASK}" heading="Change Task" type="java.lang.String">master&gt;number</column>
        <column alias="${TASK}" heading="Task State" type="wt.lifecycle.State">state.state</column>
      </select>
      <from>
        <table alias="${NOTICE}" isExternal="false">wt.change2.WTChangeOrder2</table>
        <table alias="${TASK}" isExternal="false">wt.change2.WTChangeActivity2</table>
      </from>
      <orderBy>
        <orderByItem type="asc"><columnTarget heading="Change Notice"/></orderByItem>
        <orderByItem type="asc"><columnTarget heading="Change Task"/></orderByItem>
      </orderBy>
      <linkJoin>
        <join name="wt.change2.IncludedIn2">
          <aliasTarget alias="${first}"/>
          <aliasTarget alias="${second}"/>
        </join>
      </linkJoin>
    </query>
  </statement>
</qml>`;
}

const attribute = (heading: string, alias: string, path: string) =>
  `<reportAttribute heading="${heading}" reportAttributeId="${heading.replace(/ /g, '_')}" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
          <column alias="${alias}" isExternal="false" type="java.lang.String" propertyName="number">${path}</column>
        </reportAttribute>`;

/** The same in the layout of Windchill 10 and later, whose joins name a from and a to alias. */
function queryLayout(from: string, to: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" mainType="Change Notice" joinModel="false">
  <query>
    <selectOrConstrain distinct="false" group="false">
      ${attribute('Change Notice', NOTICE, 'master&gt;number')}
      ${attribute('Change Task', TASK, 'master&gt;number')}
      ${attribute('Task State', TASK, 'state.state')}
    </selectOrConstrain>
    <from>
      <table alias="${NOTICE}" isExternal="false" xposition="0px" yposition="40px">wt.change2.WTChangeOrder2</table>
      <table alias="${TASK}" isExternal="false" xposition="151px" yposition="459px">wt.change2.WTChangeActivity2</table>
    </from>
    <orderBy>
      <orderByItem type="asc"><reportAttributeReference id="Change_Notice"/></orderByItem>
      <orderByItem type="asc"><reportAttributeReference id="Change_Task"/></orderByItem>
    </orderBy>
    <linkJoin>
      <join name="wt.change2.IncludedIn2">
        <fromAliasTarget alias="${from}"/>
        <toAliasTarget alias="${to}"/>
      </join>
    </linkJoin>
  </query>
</qml>`;
}

/**
 * The link as a table of its own, joined to its ends by roleAObjectRef and roleBObjectRef, as
 * Windchill exports it: role A of IncludedIn2 is the change notice, role B the change task.
 */
function referenceJoins(roleA: string, roleB: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Change Notice" heading="Change Notice" type="java.lang.String">number</column>
        <column alias="Change Task" heading="Change Task" type="java.lang.String">number</column>
        <column alias="Change Task" heading="Task State" type="wt.lifecycle.State">state.state</column>
      </select>
      <from>
        <table alias="Link" isExternal="false">wt.change2.IncludedIn2</table>
        <table alias="Change Notice" isExternal="false">wt.change2.WTChangeOrder2</table>
        <table alias="Change Task" isExternal="false">wt.change2.WTChangeActivity2</table>
      </from>
      <orderBy>
        <orderByItem type="asc"><columnTarget heading="Change Notice"/></orderByItem>
        <orderByItem type="asc"><columnTarget heading="Change Task"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="roleAObjectRef"><aliasTarget alias="Link"/><aliasTarget alias="${roleA}"/></join>
        <join name="roleBObjectRef"><aliasTarget alias="Link"/><aliasTarget alias="${roleB}"/></join>
      </referenceJoin>
    </query>
  </statement>
</qml>`;
}

/**
 * Real exports name the two ends of a link join in either order: the change notice first and
 * its task second (role A of IncludedIn2 is the notice, as in Windchill), or the reverse. Both
 * give the same rows, in both layouts, each reader seeing the links of the containers they may
 * read. Exports that read the link as a table join its roleAObjectRef to the notice.
 */
describe('link joins as real exports write them', () => {
  const t = useTestApp();

  const cases = [
    ['statement layout, notice then task (the roles’ order)', statementLayout(NOTICE, TASK)],
    ['statement layout, task then notice', statementLayout(TASK, NOTICE)],
    ['query layout, from the task to the notice', queryLayout(TASK, NOTICE)],
    ['query layout, from the notice to the task', queryLayout(NOTICE, TASK)],
  ];

  it.each(cases)('%s: the same rows for every reader', async (_what, qml) => {
    const bob = await post(t, qml, USERS.bob);
    expect(bob.status).toBe(200);
    expect(bob.body.items).toEqual([
      ['CN-0001', 'CA-0001', 'OPEN'],
      ['CN-0001', 'CA-0002', 'COMPLETED'],
    ]);
    const carol = await post(t, qml, USERS.carol);
    expect(carol.status).toBe(200);
    expect(carol.body.items).toEqual([['CN-9001', 'CA-9001', 'OPEN']]);
  });

  it('answers 400 naming both classes and the link’s roles when neither order fits', async () => {
    const qml = statementLayout(NOTICE, TASK).replace(
      'wt.change2.WTChangeActivity2</table>',
      'wt.change2.WTChangeRequest2</table>',
    );
    const res = await post(t, qml, USERS.bob);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message:
        '/qml/statement/query/linkJoin/join[1]: link wt.change2.IncludedIn2 cannot join wt.change2.WTChangeOrder2 and wt.change2.WTChangeRequest2, in either order: it links wt.change2.WTChangeOrder2 (role A) to wt.change2.WTChangeActivity2 (role B)',
    });
  });

  it('reads the notice through roleAObjectRef and the task through roleBObjectRef', async () => {
    const qml = referenceJoins('Change Notice', 'Change Task');
    const bob = await post(t, qml, USERS.bob);
    expect(bob.status).toBe(200);
    expect(bob.body.items).toEqual([
      ['CN-0001', 'CA-0001', 'OPEN'],
      ['CN-0001', 'CA-0002', 'COMPLETED'],
    ]);
    const carol = await post(t, qml, USERS.carol);
    expect(carol.status).toBe(200);
    expect(carol.body.items).toEqual([['CN-9001', 'CA-9001', 'OPEN']]);
  });

  it('answers 400 naming the references and the classes when roleAObjectRef is joined to the task', async () => {
    const res = await post(t, referenceJoins('Change Task', 'Change Notice'), USERS.bob);
    expect(res.status).toBe(400);
    const join = '/qml/statement/query/referenceJoin/join';
    const roleA =
      'reference "roleAObjectRef" of wt.change2.IncludedIn2 cannot point to wt.change2.WTChangeActivity2 (it points to wt.change2.WTChangeOrder2)';
    const roleB =
      'reference "roleBObjectRef" of wt.change2.IncludedIn2 cannot point to wt.change2.WTChangeOrder2 (it points to wt.change2.WTChangeActivity2)';
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: `${join}[1]: ${roleA} (and 1 more problem, listed in "problems")`,
      problems: [
        { path: `${join}[1]`, message: roleA },
        { path: `${join}[2]`, message: roleB },
      ],
    });
  });
});
