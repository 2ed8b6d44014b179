import { USERS } from '../helpers/test-app.js';
import { condition, latest, reportAttribute, useModelData } from './model-fixtures.js';

const CN = 'wt.change2.WTChangeOrder2';
const WF = 'wt.workflow.engine.WfProcess';

/**
 * Workflow processes, their templates, activities, assignments, work items and votes through the
 * standard catalog: state, template and creator of processes, status and owners of work items,
 * imported through a dataset and read by templates written as Windchill exports them. The change
 * notice has a second iteration; one process and one task lie in a container alice and bob do not
 * read.
 */
describe('workflow templates over the standard catalog', () => {
  const f = useModelData('WFL', (n) => {
    const main = n.main;
    const cn = { class: CN, number: n.n('CN1') };
    return {
      objects: [
        { ...cn, name: 'Thicker housing', container: main, iteration: 1, createdBy: 'alice' },
        { ...cn, name: 'Thicker housing', container: main, iteration: 2, createdBy: 'alice' },
        {
          class: 'wt.workflow.definer.WfProcessTemplate',
          name: n.n('Change Notice Workflow'),
          properties: { enabled: true, category: 'CHANGE' },
        },
        n.object(WF, 'WF1', 'Review CN1', {
          state: 'OPEN_RUNNING',
          createdAt: '2026-04-01T08:00:00Z',
          properties: { startTime: '2026-04-01T08:00:00Z', priority: 1, template: n.n('Change Notice Workflow') },
          references: { template: n.n('Change Notice Workflow'), primaryBusinessObject: cn },
        }),
        n.object(WF, 'WF9', 'Secret review', {
          container: n.secret,
          createdBy: 'carol',
          state: 'CLOSED_COMPLETED_EXECUTED',
          createdAt: '2026-04-03T08:00:00Z',
          properties: {
            startTime: '2026-04-03T08:00:00Z',
            endTime: '2026-04-04T12:00:00Z',
            template: n.n('Change Notice Workflow'),
          },
        }),
        n.object('wt.workflow.work.WfAssignedActivity', 'A1', 'Review change notice', {
          state: 'OPEN_RUNNING',
          properties: { deadline: '2026-04-08T17:00:00Z' },
          references: { parentProcessRef: n.n('WF1') },
        }),
        n.object('wt.workflow.work.WfAssignment', 'AS1', 'Reviewers', {
          state: 'ACCEPTED',
          properties: { role: 'REVIEWER', required: true },
          references: { parentProcessRef: n.n('WF1') },
        }),
        n.object('wt.workflow.work.WorkItem', 'WI1', 'Review CN1 (bob)', {
          state: 'POTENTIAL',
          properties: { role: 'REVIEWER', priority: 2 },
          references: { 'ownership.owner': 'bob', source: n.n('A1'), primaryBusinessObject: cn },
        }),
        n.object('wt.workflow.work.WorkItem', 'WI2', 'Review CN1 (alice)', {
          state: 'COMPLETED',
          properties: { role: 'REVIEWER', priority: 2, completedBy: 'alice', reassigned: true },
          references: { 'ownership.owner': 'alice', origOwner: 'bob', source: n.n('A1'), primaryBusinessObject: cn },
        }),
        n.object('wt.workflow.work.WorkItem', 'WI9', 'Secret task', {
          container: n.secret,
          createdBy: 'carol',
          state: 'POTENTIAL',
          properties: { role: 'APPROVER' },
          references: { 'ownership.owner': 'carol' },
        }),
        n.object('wt.workflow.engine.WfVotingEventAudit', 'V1', 'vote of alice', {
          properties: {
            eventList: 'Approve',
            activityName: 'Review change notice',
            processName: 'Review CN1',
            userComment: 'fine by me',
            timestamp: '2026-04-02T09:00:00Z',
            role: 'REVIEWER',
          },
          references: { userRef: 'alice', processRef: n.n('WF1') },
        }),
      ],
      links: [
        { class: 'wt.workflow.work.ActivityAssignmentLink', a: n.n('A1'), b: n.n('AS1'), container: main },
        { class: 'wt.workflow.work.WorkItemLink', a: n.n('AS1'), b: n.n('WI1'), container: main },
        { class: 'wt.workflow.work.WorkItemLink', a: n.n('AS1'), b: n.n('WI2'), container: main },
      ],
    };
  });
  const n = f.names.n;

  it('lists processes with state, template and initiator, each reader the processes of their containers', async () => {
    const qml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml bypassAccessControl="false">
    <statement>
        <query>
            <select>
                <column alias="Workflow Process" heading="Process" propertyName="name" type="java.lang.String">name</column>
                <column alias="Workflow Process" heading="State" propertyName="state" type="wt.workflow.engine.WfState">state</column>
                <column alias="Workflow Process" heading="Started" propertyName="startTime" type="java.sql.Timestamp">startTime</column>
                <column alias="Workflow Process" heading="Finished" propertyName="endTime" type="java.sql.Timestamp">endTime</column>
                <object alias="Workflow Process" heading="Template" propertyName="template.name">
                    <property name="template">
                        <property name="name"/>
                    </property>
                </object>
                <object alias="Workflow Process" heading="InitiatedBy" propertyName="creator.displayName">
                    <property name="creator">
                        <property name="displayName"/>
                    </property>
                </object>
                <column alias="Workflow Process" heading="StartedOn" propertyName="createTimestamp" type="java.sql.Timestamp">thePersistInfo.createStamp</column>
            </select>
            <from>
                <table alias="Workflow Process">${WF}</table>
            </from>
            <where>
                ${condition('Workflow Process', 'number', 'like', `${n('WF')}*`)}
            </where>
            <orderBy>
                <orderByItem><columnTarget heading="Process"/></orderByItem>
            </orderBy>
        </query>
    </statement>
</qml>`;
    const template = n('Change Notice Workflow');
    const open = [
      'Review CN1',
      'OPEN_RUNNING',
      '2026-04-01T08:00:00.000Z',
      null,
      template,
      'Alice Author',
      '2026-04-01T08:00:00.000Z',
    ];
    const closed = [
      'Secret review',
      'CLOSED_COMPLETED_EXECUTED',
      '2026-04-03T08:00:00.000Z',
      '2026-04-04T12:00:00.000Z',
      template,
      'Carol Librarian',
      '2026-04-03T08:00:00.000Z',
    ];
    expect(await f.rows(qml)).toEqual([open]);
    expect(await f.rows(qml, USERS.bob)).toEqual([open]);
    expect(await f.rows(qml, USERS.carol)).toEqual([open, closed]);
  });

  it('joins a process to its template and its business object by reference', async () => {
    const qml = `<qml><statement><query>
      <select>
        <column alias="P" heading="Process">name</column>
        <column alias="T" heading="Template">name</column>
        <column alias="T">category</column>
        <column alias="P">businessObjReference</column>
        <object alias="N" heading="Object" propertyName=""/>
      </select>
      <from>
        <table alias="P">${WF}</table>
        <table alias="T">wt.workflow.definer.WfProcessTemplate</table>
        <table alias="N">${CN}</table>
      </from>
      <where>${condition('P', 'number', 'like', `${n('WF')}*`)}</where>
      <referenceJoin>
        <join name="template"><aliasTarget alias="P"/><aliasTarget alias="T"/></join>
        <join name="primaryBusinessObject"><aliasTarget alias="P"/><aliasTarget alias="N"/></join>
      </referenceJoin>
    </query></statement></qml>`;
    const { rows } = await f
      .db()
      .query<{ id: number }>(
        `SELECT i.id FROM iterations i JOIN masters m ON m.id = i.master_id WHERE m.number = $1 AND i.latest`,
        [n('CN1')],
      );
    const oid = `OR:${CN}:${rows[0].id}`;
    expect(await f.rows(qml, USERS.bob)).toEqual([['Review CN1', n('Change Notice Workflow'), 'CHANGE', oid, oid]]);
  });

  it('lists the tasks of change notices with status, role and owner (query layout)', async () => {
    const qml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" addTimeToDateFields="false" mainType="Change Notice" joinModel="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <query>
        <selectOrConstrain distinct="false" group="false">
            ${reportAttribute('ECO Number', '<column alias="Change Notice" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column>')}
            ${reportAttribute('ECO Version', '<object alias="Change Notice" isExternal="false" propertyName="iterationDisplayIdentifier"/>')}
            ${reportAttribute('Task Status', '<column alias="Work Item" isExternal="false" type="wt.workflow.work.WfAssignmentState" propertyName="status">status</column>')}
            ${reportAttribute('Task Role', '<column alias="Work Item" isExternal="false" type="wt.project.Role" propertyName="role">role</column>')}
            ${reportAttribute('Priority', '<column alias="Work Item" isExternal="false" type="long" propertyName="priority">priority</column>')}
            ${reportAttribute('Completed By', '<column alias="Work Item" isExternal="false" type="java.lang.String" propertyName="completedBy">completedBy</column>')}
            ${reportAttribute('Owner', '<column alias="Owner" isExternal="false" type="java.lang.String" propertyName="fullName">fullName</column>')}
            ${reportAttribute('Owner EMail', '<column alias="Owner" isExternal="false" type="java.lang.String" propertyName="EMail">EMail</column>')}
        </selectOrConstrain>
        <from>
            <table alias="Change Notice" isExternal="false" xposition="0px" yposition="40px">${CN}</table>
            <table alias="Work Item" isExternal="false" xposition="300px" yposition="40px">wt.workflow.work.WorkItem</table>
            <table alias="Owner" isExternal="false" xposition="600px" yposition="40px">wt.org.WTUser</table>
        </from>
        <where>
            <compositeCondition type="and">
                <condition>
                    <standardCondition>
                        <operand><column alias="Change Notice" isExternal="false" type="boolean" propertyName="latestIteration">iterationInfo.latest</column></operand>
                        <operator type="equal"/>
                        <operand><constant type="boolean" isMacro="false" xml:space="preserve">1</constant></operand>
                    </standardCondition>
                </condition>
                <condition>
                    <standardCondition>
                        <operand><column alias="Change Notice" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column></operand>
                        <operator type="like"/>
                        <operand><constant type="java.lang.String" isMacro="false" xml:space="preserve">${n('CN')}*</constant></operand>
                    </standardCondition>
                </condition>
            </compositeCondition>
        </where>
        <orderBy>
            <orderByItem type="asc"><reportAttributeReference id="Task_Status"/></orderByItem>
        </orderBy>
        <referenceJoin>
            <join name="primaryBusinessObject">
                <fromAliasTarget alias="Work Item"/>
                <toAliasTarget alias="Change Notice"/>
            </join>
            <join name="ownership.owner">
                <fromAliasTarget alias="Work Item"/>
                <toAliasTarget alias="Owner"/>
            </join>
        </referenceJoin>
    </query>
</qml>`;
    const rows = [
      [n('CN1'), 'A.2', 'COMPLETED', 'REVIEWER', 2, 'alice', 'Alice Author', 'alice@example.com'],
      [n('CN1'), 'A.2', 'POTENTIAL', 'REVIEWER', 2, null, 'Bob Reader', 'bob@example.com'],
    ];
    expect(await f.rows(qml)).toEqual(rows);
    expect(await f.rows(qml, USERS.carol)).toEqual(rows);
  });

  it('follows activities to their assignments and work items through the workflow link classes', async () => {
    const qml = `<?xml version="1.0" encoding="UTF-8"?>
<qml>
    <statement>
        <query>
            <select>
                <column alias="Workflow Process" heading="Process">name</column>
                <column alias="Wf Assigned Activity" heading="Activity">name</column>
                <column alias="Wf Assigned Activity" heading="Activity State">state</column>
                <column alias="Wf Assigned Activity" heading="Deadline" type="java.sql.Timestamp">deadline</column>
                <column alias="Wf Assignment" heading="Role">role</column>
                <column alias="Wf Assignment" heading="Assignment">status</column>
                <column alias="Work Item" heading="Task">status</column>
                <column alias="Work Item" heading="Reassigned" type="boolean">reassigned</column>
            </select>
            <from>
                <table alias="Work Item">wt.workflow.work.WorkItem</table>
                <table alias="Wf Assignment">wt.workflow.work.WfAssignment</table>
                <table alias="Wf Assigned Activity">wt.workflow.work.WfAssignedActivity</table>
                <table alias="Workflow Process">${WF}</table>
            </from>
            <where>
                ${condition('Workflow Process', 'number', 'like', `${n('WF')}*`)}
            </where>
            <orderBy>
                <orderByItem><columnTarget heading="Task"/></orderByItem>
            </orderBy>
            <linkJoin>
                <join name="wt.workflow.work.WorkItemLink">
                    <aliasTarget alias="Wf Assignment"/>
                    <aliasTarget alias="Work Item"/>
                </join>
                <join name="wt.workflow.work.ActivityAssignmentLink">
                    <aliasTarget alias="Wf Assigned Activity"/>
                    <aliasTarget alias="Wf Assignment"/>
                </join>
            </linkJoin>
            <referenceJoin>
                <join name="parentProcessRef">
                    <aliasTarget alias="Wf Assigned Activity"/>
                    <aliasTarget alias="Workflow Process"/>
                </join>
            </referenceJoin>
        </query>
    </statement>
</qml>`;
    const row = (task: string, reassigned: boolean | null) => [
      'Review CN1',
      'Review change notice',
      'OPEN_RUNNING',
      '2026-04-08T17:00:00.000Z',
      'REVIEWER',
      'ACCEPTED',
      task,
      reassigned,
    ];
    expect(await f.rows(qml, USERS.bob)).toEqual([row('COMPLETED', true), row('POTENTIAL', null)]);
    // The activities of processes together: the abstract class reads assigned activities.
    const activities = `<qml><statement><query>
      <select><column alias="A">name</column><object alias="A" propertyName="displayType"/><column alias="A">state</column></select>
      <from><table alias="A">wt.workflow.engine.WfActivity</table></from>
      <where>${condition('A', 'number', 'like', `${n('')}*`)}</where>
    </query></statement></qml>`;
    expect(await f.rows(activities)).toEqual([['Review change notice', 'Activity', 'OPEN_RUNNING']]);
  });

  it('reads the votes of tasks with the user who voted and the process', async () => {
    const qml = `<qml><statement><query>
      <select>
        <column alias="Vote" heading="Vote">eventList</column>
        <column alias="Vote">activityName</column>
        <column alias="Vote">userComment</column>
        <column alias="Vote" type="java.sql.Timestamp">timestamp</column>
        <column alias="User">fullName</column>
        <column alias="Process">name</column>
      </select>
      <from>
        <table alias="Vote">wt.workflow.engine.WfVotingEventAudit</table>
        <table alias="User">wt.org.WTUser</table>
        <table alias="Process">${WF}</table>
      </from>
      <where>${condition('Vote', 'number', 'like', `${n('V')}*`)}</where>
      <referenceJoin>
        <join name="userRef"><aliasTarget alias="Vote"/><aliasTarget alias="User"/></join>
        <join name="processRef"><aliasTarget alias="Vote"/><aliasTarget alias="Process"/></join>
      </referenceJoin>
    </query></statement></qml>`;
    const vote = [
      'Approve',
      'Review change notice',
      'fine by me',
      '2026-04-02T09:00:00.000Z',
      'Alice Author',
      'Review CN1',
    ];
    expect(await f.rows(qml, USERS.bob)).toEqual([vote]);
    expect(await f.rows(qml, USERS.carol)).toEqual([vote]);
  });

  it('shows a task of a container only to its readers', async () => {
    const qml = `<qml><statement><query>
      <select><column alias="W" heading="Task">name</column><column alias="W">status</column></select>
      <from><table alias="W">wt.workflow.work.WorkItem</table></from>
      <where>${condition('W', 'number', 'like', `${n('WI')}*`)}</where>
      <orderBy><orderByItem><columnTarget heading="Task"/></orderByItem></orderBy>
    </query></statement></qml>`;
    const mine = [
      ['Review CN1 (alice)', 'COMPLETED'],
      ['Review CN1 (bob)', 'POTENTIAL'],
    ];
    expect(await f.rows(qml)).toEqual(mine);
    expect(await f.rows(qml, USERS.carol)).toEqual([...mine, ['Secret task', 'POTENTIAL']]);
    // Latest is a versioned object's property: a work item has none.
    const res = await f.answer(
      qml
        .replace('<where>', `<where><compositeCondition type="and">${latest('W')}`)
        .replace('</where>', '</compositeCondition></where>'),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/unknown property "iterationInfo.latest" of wt.workflow.work.WorkItem/);
  });
});
