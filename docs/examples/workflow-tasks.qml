<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Process (wt.workflow.engine.WfProcess)" heading="Process">name</column>
        <column alias="Process (wt.workflow.engine.WfProcess)" heading="Process State">state.state</column>
        <column alias="Activity (wt.workflow.work.WfAssignedActivity)" heading="Activity">name</column>
        <column alias="Task (wt.workflow.work.WorkItem)" heading="Task">name</column>
        <column alias="Task (wt.workflow.work.WorkItem)" heading="Role">role</column>
        <column alias="Task (wt.workflow.work.WorkItem)" heading="Status">state.state</column>
        <column alias="Owner (wt.org.WTUser)" heading="Owner">name</column>
        <object alias="Task (wt.workflow.work.WorkItem)" heading="Task Type" propertyName="displayType"/>
        <column alias="Subject (wt.change2.WTChangeOrder2)" heading="Subject">number</column>
      </select>
      <from>
        <table alias="Task (wt.workflow.work.WorkItem)">wt.workflow.work.WorkItem</table>
        <table alias="Activity (wt.workflow.work.WfAssignedActivity)">wt.workflow.work.WfAssignedActivity</table>
        <table alias="Process (wt.workflow.engine.WfProcess)">wt.workflow.engine.WfProcess</table>
        <table alias="Owner (wt.org.WTUser)">wt.org.WTUser</table>
        <table alias="Subject (wt.change2.WTChangeOrder2)" outerJoinAlias="Task (wt.workflow.work.WorkItem)">wt.change2.WTChangeOrder2</table>
      </from>
      <orderBy>
        <orderByItem><columnTarget heading="Task"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="source">
          <aliasTarget alias="Task (wt.workflow.work.WorkItem)"/>
          <aliasTarget alias="Activity (wt.workflow.work.WfAssignedActivity)"/>
        </join>
        <join name="parentProcessRef">
          <aliasTarget alias="Activity (wt.workflow.work.WfAssignedActivity)"/>
          <aliasTarget alias="Process (wt.workflow.engine.WfProcess)"/>
        </join>
        <join name="ownership.owner">
          <aliasTarget alias="Task (wt.workflow.work.WorkItem)"/>
          <aliasTarget alias="Owner (wt.org.WTUser)"/>
        </join>
        <join name="primaryBusinessObject">
          <aliasTarget alias="Task (wt.workflow.work.WorkItem)"/>
          <aliasTarget alias="Subject (wt.change2.WTChangeOrder2)"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
