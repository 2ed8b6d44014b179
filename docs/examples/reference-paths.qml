<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Task (wt.workflow.work.WorkItem)" heading="Task">name</column>
        <column alias="Task (wt.workflow.work.WorkItem)" heading="Owner">ownership.owner.fullName</column>
        <column alias="Task (wt.workflow.work.WorkItem)" heading="Activity">source.name</column>
        <column alias="Task (wt.workflow.work.WorkItem)" heading="Process">source.parentProcessRef.name</column>
        <object alias="Task (wt.workflow.work.WorkItem)" heading="Subject Type">
          <property name="primaryBusinessObject"><property name="displayType"/></property>
        </object>
      </select>
      <from>
        <table alias="Task (wt.workflow.work.WorkItem)">wt.workflow.work.WorkItem</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Task (wt.workflow.work.WorkItem)">ownership.owner.name</column></operand>
          <operator type="notEqual"/>
          <operand><constant>admin</constant></operand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Task"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
