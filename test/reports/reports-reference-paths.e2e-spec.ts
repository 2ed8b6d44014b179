import type pg from 'pg';
import request from 'supertest';
import { importText } from '../../src/import/import-file.js';
import { USERS } from '../helpers/test-app.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';

type User = readonly [string, string];

/**
 * Property paths through references and tables of interfaces, run on PostgreSQL: over the demo
 * data, and over a dataset of this file's own (two containers, removed afterwards) where a
 * reader may read an object but not what it refers to.
 */
const n = (suffix: string) => `RP${process.pid}-${suffix}`;
const MAIN = `refs main ${process.pid}`;
const SECRET = `refs secret ${process.pid}`;
const PKG = `com.acme.refs${process.pid}`;
const INSPECTION = `${PKG}.Inspection`;
const INSPECTION_OF = `${PKG}.InspectionOf`;
const CHECKED = `${PKG}.Checked`;

const DATASET = {
  format: 'pdm-dataset/1',
  types: {
    // An interface of the dataset's own, stored with its classes (catalog_types).
    interfaces: [{ name: CHECKED, about: 'checked objects', properties: { 'state.state': { type: 'string' } } }],
    classes: [
      // A plain class implementing a standard interface of versioned classes, and its own.
      { name: INSPECTION, parent: 'wt.fc.Item', interfaces: ['wt.lifecycle.LifeCycleManaged', CHECKED] },
      // A link whose role B is an interface: anything a change can affect.
      {
        name: INSPECTION_OF,
        parent: 'wt.fc.ObjectToObjectLink',
        roles: { a: INSPECTION, b: 'wt.change2.Changeable2' },
      },
    ],
  },
  containers: [
    { name: MAIN, class: 'wt.pdmlink.PDMLinkProduct', members: { alice: 'author', bob: 'reader', carol: 'reader' } },
    { name: SECRET, class: 'wt.pdmlink.PDMLinkProduct', members: { carol: 'author' } },
  ],
  objects: [
    {
      class: 'wt.part.WTPart',
      number: n('PART'),
      name: n('gear'),
      container: MAIN,
      state: 'INWORK',
      createdBy: 'alice',
    },
    {
      class: 'wt.workflow.engine.WfProcess',
      number: n('P'),
      name: n('secret process'),
      container: SECRET,
      createdBy: 'carol',
    },
    {
      class: 'wt.workflow.work.WfAssignedActivity',
      number: n('A'),
      name: n('review'),
      container: MAIN,
      references: { parentProcessRef: n('P') },
    },
    {
      class: 'wt.workflow.work.WorkItem',
      number: n('W1'),
      name: n('task with source'),
      container: MAIN,
      references: { 'ownership.owner': 'bob', source: n('A') },
    },
    {
      class: 'wt.workflow.work.WorkItem',
      number: n('W2'),
      name: n('task without source'),
      container: MAIN,
      references: { 'ownership.owner': 'alice' },
    },
    { class: INSPECTION, number: n('I1'), name: n('inspection'), state: 'PASSED', container: MAIN },
    { class: INSPECTION, number: n('I2'), name: n('secret inspection'), state: 'FAILED', container: SECRET },
  ],
  links: [{ class: INSPECTION_OF, a: n('I1'), b: { class: 'wt.part.WTPart', number: n('PART') }, container: MAIN }],
};

const statement = (select: string, from: string, rest = '', selectAttrs = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>
<qml><statement><query>
  <select${selectAttrs}>${select}</select>
  <from>${from}</from>
  ${rest}
</query></statement></qml>`;
const col = (alias: string, path: string, heading = path) =>
  `<column alias="${alias}" heading="${heading}" type="java.lang.String">${path}</column>`;
const like = (alias: string, path: string, pattern: string) =>
  `<condition><operand>${col(alias, path)}</operand><operator type="like"/><operand><constant type="java.lang.String">${pattern}</constant></operand></condition>`;
const order = (...headings: string[]) =>
  `<orderBy>${headings.map((h) => `<orderByItem type="asc"><columnTarget heading="${h}"/></orderByItem>`).join('')}</orderBy>`;

describe('property paths through references and tables of interfaces', () => {
  const t = useTestApp({ CATALOG_CHECK_INTERVAL_MS: '0' });
  let db: pg.Pool;

  beforeAll(async () => {
    db = testPool();
    await importText(JSON.stringify(DATASET), 'reference paths dataset', testDatabaseUrl());
  });

  afterAll(async () => {
    const ids = '(SELECT id FROM containers WHERE name = ANY($1))';
    await db.query(`DELETE FROM links WHERE container_id IN ${ids}`, [[MAIN, SECRET]]);
    await db.query(`DELETE FROM objects WHERE container_id IN ${ids}`, [[MAIN, SECRET]]);
    await db.query(`DELETE FROM iterations WHERE master_id IN (SELECT id FROM masters WHERE container_id IN ${ids})`, [
      [MAIN, SECRET],
    ]);
    await db.query(`DELETE FROM masters WHERE container_id IN ${ids}`, [[MAIN, SECRET]]);
    await db.query(`DELETE FROM audit_events WHERE container_id IN ${ids}`, [[MAIN, SECRET]]);
    await db.query('DELETE FROM containers WHERE name = ANY($1)', [[MAIN, SECRET]]);
    await db.query('DELETE FROM catalog_types WHERE name = ANY($1)', [[INSPECTION, INSPECTION_OF, CHECKED]]);
    await db.end();
  });

  const answer = (qml: string, user: User) =>
    request(t.http)
      .post('/reports?format=json')
      .auth(...user)
      .set('Content-Type', 'text/xml')
      .send(qml);
  const rows = async (qml: string, user: User) => {
    const res = await answer(qml, user);
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    return res.body.items as unknown[][];
  };

  it("reads each part's creator through iterationInfo.creator, in the statement layout", async () => {
    const qml = statement(
      col('P', 'number', 'Number') +
        col('P', 'iterationInfo.creator.name', 'Creator') +
        col('P', 'iterationInfo.creator.fullName', 'Full name'),
      '<table alias="P">wt.part.WTPart</table>',
      `<where><compositeCondition type="and">${like('P', 'number', 'P-0000000_')}<condition><operand>${col('P', 'iterationInfo.latest')}</operand><operator type="equal"/><operand><constant type="boolean">1</constant></operand></condition></compositeCondition></where>${order('Number')}`,
    );
    expect(await rows(qml, USERS.bob)).toEqual([
      ['P-00000001', 'alice', 'Alice Author'],
      ['P-00000002', 'alice', 'Alice Author'],
      ['P-00000003', 'admin', 'Administrator'],
      ['P-00000004', 'admin', 'Administrator'],
      ['P-00000005', 'admin', 'Administrator'],
    ]);
  });

  it('filters and groups by a path, in the query layout', async () => {
    const attribute = (id: string, inner: string, extra = '') =>
      `<reportAttribute heading="${id}" reportAttributeId="${id}" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false"${extra}>${inner}</reportAttribute>`;
    const qml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="false">
  <query>
    <selectOrConstrain distinct="false" group="true">
      ${attribute('Creator', '<column alias="Part" isExternal="false" type="java.lang.String" propertyName="name">iterationInfo.creator.name</column>')}
      ${attribute('Parts', '<function name="COUNT"><column alias="Part" type="java.lang.String">master&gt;number</column></function>')}
    </selectOrConstrain>
    <from><table alias="Part" isExternal="false">wt.part.WTPart</table></from>
    <where><compositeCondition type="and">
      <condition><standardCondition><operand><column alias="Part" type="java.lang.String">iterationInfo.creator.fullName</column></operand><operator type="notEqual"/><operand><constant type="java.lang.String">Administrator</constant></operand></standardCondition></condition>
      <condition><standardCondition><operand><column alias="Part" type="java.lang.Boolean">iterationInfo.latest</column></operand><operator type="equal"/><operand><constant type="java.lang.Boolean">1</constant></operand></standardCondition></condition>
    </compositeCondition></where>
    <orderBy><orderByItem type="desc"><reportAttributeReference id="Parts"/></orderByItem></orderBy>
  </query>
</qml>`;
    // Bob reads the Drive Unit, the standard parts and this file's part.
    expect(await rows(qml, USERS.bob)).toEqual([
      ['alice', 3],
      ['carol', 2],
    ]);
    // Carol reads the standard parts and this file's part, not the Drive Unit.
    expect(await rows(qml, USERS.carol)).toEqual([
      ['carol', 2],
      ['alice', 1],
    ]);
  });

  it("follows a work item's activity to its process, over the demo data", async () => {
    const qml = statement(
      col('W', 'number', 'Task') +
        col('W', 'ownership.owner.fullName', 'Owner') +
        col('W', 'source.parentProcessRef.name', 'Process'),
      '<table alias="W">wt.workflow.work.WorkItem</table>',
      `<where>${like('W', 'number', 'WI-%')}</where>${order('Task')}`,
    );
    expect(await rows(qml, USERS.bob)).toEqual([
      ['WI-0001', 'Bob Reader', 'Change Notice Workflow CN-0001'],
      ['WI-0002', 'Alice Author', 'Change Notice Workflow CN-0001'],
    ]);
    // A task without an activity keeps its row, with nulls.
    expect(await rows(qml, USERS.carol)).toEqual([['WI-9001', 'Carol Librarian', null]]);
  });

  it('gives a reader who may not read the target no values of it, in select and in where', async () => {
    const select = statement(
      col('W', 'number', 'Task') +
        col('W', 'source.name', 'Activity') +
        col('W', 'source.parentProcessRef.name', 'Process'),
      '<table alias="W">wt.workflow.work.WorkItem</table>',
      `<where>${like('W', 'number', n('W%'))}</where>${order('Task')}`,
    );
    // The process is in a container only carol reads.
    expect(await rows(select, USERS.bob)).toEqual([
      [n('W1'), n('review'), null],
      [n('W2'), null, null],
    ]);
    expect(await rows(select, USERS.carol)).toEqual([
      [n('W1'), n('review'), n('secret process')],
      [n('W2'), null, null],
    ]);
    const where = statement(
      col('W', 'number', 'Task'),
      '<table alias="W">wt.workflow.work.WorkItem</table>',
      `<where>${like('W', 'source.parentProcessRef.name', `${n('secret')}%`)}</where>`,
    );
    expect(await rows(where, USERS.bob)).toEqual([]);
    expect(await rows(where, USERS.carol)).toEqual([[n('W1')]]);
  });

  it('answers 400 naming the path, the class and the unknown part', async () => {
    const res = await answer(
      statement(col('W', 'source.parentProcessRef.nmae'), '<table alias="W">wt.workflow.work.WorkItem</table>'),
      USERS.bob,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message:
        '/qml/statement/query/select/column[1]: unknown property "nmae" of wt.workflow.engine.WfProcess (in "source.parentProcessRef.nmae" of wt.workflow.work.WorkItem, through source, parentProcessRef)',
    });
  });

  it('reads a table of an interface from every storage its classes are kept in', async () => {
    const qml = statement(
      col('L', 'name', 'Name') +
        col('L', 'state.state', 'State') +
        `<object alias="L" heading="Type" propertyName="displayType"/>`,
      '<table alias="L">wt.lifecycle.LifeCycleManaged</table>',
      `<where>${like('L', 'name', `${n('')}%`)}</where>${order('Name')}`,
    );
    // A part (iterations) and inspections (objects, a user's class implementing the interface).
    expect(await rows(qml, USERS.bob)).toEqual([
      [n('gear'), 'INWORK', 'Part'],
      [n('inspection'), 'PASSED', 'Inspection'],
    ]);
    expect(await rows(qml, USERS.carol)).toEqual([
      [n('gear'), 'INWORK', 'Part'],
      [n('inspection'), 'PASSED', 'Inspection'],
      [n('secret inspection'), 'FAILED', 'Inspection'],
    ]);
    // An interface the dataset declared, read back from catalog_types.
    const checked = statement(
      col('C', 'number', 'Number') + col('C', 'state.state', 'State'),
      `<table alias="C">${CHECKED}</table>`,
      order('Number'),
    );
    expect(await rows(checked, USERS.carol)).toEqual([
      [n('I1'), 'PASSED'],
      [n('I2'), 'FAILED'],
    ]);
    // The standard catalog's Federatable: users and versioned objects.
    const federatable = statement(
      col('F', 'name', 'Name') + `<object alias="F" heading="Type" propertyName="displayType"/>`,
      '<table alias="F">wt.ufid.Federatable</table>',
      `<where><compositeCondition type="or">${like('F', 'name', 'bob')}${like('F', 'name', 'Housing')}</compositeCondition></where>${order('Type')}`,
    );
    expect(await rows(federatable, USERS.bob)).toEqual([
      ['Housing', 'Part'],
      ['bob', 'User'],
    ]);
  });

  it('goes through the references of an interface of several storages, and to an object of any class', async () => {
    const qml = statement(
      col('C', 'name', 'Name') +
        col('C', 'containerReference.name', 'Container') +
        `<object alias="C" heading="Type" propertyName="displayType"/>`,
      '<table alias="C">wt.inf.container.WTContained</table>',
      `<where>${like('C', 'name', `${n('')}%`)}</where>${order('Name', 'Type')}`,
    );
    // The part's iteration and its master, plain objects; the secret ones are carol's only.
    expect(await rows(qml, USERS.bob)).toEqual([
      [n('gear'), MAIN, 'Part'],
      [n('gear'), MAIN, 'Part'],
      [n('inspection'), MAIN, 'Inspection'],
      [n('review'), MAIN, 'Activity'],
      [n('task with source'), MAIN, 'Task'],
      [n('task without source'), MAIN, 'Task'],
    ]);
    expect((await rows(qml, USERS.carol)).filter((r) => r[1] === SECRET)).toEqual([
      [n('secret inspection'), SECRET, 'Inspection'],
      [n('secret process'), SECRET, 'Workflow Process'],
    ]);
    // A work item's business object may be of any class: kept as an OID, read from the union of all
    // (the change notice's soft type names it).
    const subject = statement(
      col('W', 'number', 'Task') +
        `<object alias="W" heading="Subject" propertyName="primaryBusinessObject.displayType"/>`,
      '<table alias="W">wt.workflow.work.WorkItem</table>',
      `<where>${like('W', 'number', 'WI-%')}</where>${order('Task')}`,
    );
    expect(await rows(subject, USERS.carol)).toEqual([['WI-9001', null]]);
    expect(await rows(subject, USERS.bob)).toEqual([
      ['WI-0001', 'Urgent Change Notice'],
      ['WI-0002', 'Urgent Change Notice'],
    ]);
  });

  it("joins a link whose role is an interface, and reads the role's target through roleBObjectRef", async () => {
    const join = statement(
      col('I', 'number', 'Inspection') + col('P', 'number', 'Part'),
      `<table alias="I">${INSPECTION}</table><table alias="P">wt.part.WTPart</table>`,
      `<linkJoin><join name="${INSPECTION_OF}"><aliasTarget alias="P"/><aliasTarget alias="I"/></join></linkJoin>`,
    );
    expect(await rows(join, USERS.bob)).toEqual([[n('I1'), n('PART')]]);
    const path = statement(
      col('L', 'roleAObjectRef.name', 'Inspection') +
        col('L', 'roleBObjectRef.name', 'Object') +
        col('L', 'roleBObjectRef.iterationInfo.creator.name', 'Creator'),
      `<table alias="L">${INSPECTION_OF}</table>`,
    );
    expect(await rows(path, USERS.bob)).toEqual([[n('inspection'), n('gear'), 'alice']]);
  });
});
