<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Task" heading="Task">number</column>
        <column alias="Part" heading="Part">master&gt;number</column>
        <column alias="Link" heading="What Changes">description</column>
        <object alias="Link" heading="Link Type" propertyName="displayType"/>
        <object alias="Link" heading="Link Container" propertyName="containerName"/>
      </select>
      <from>
        <table alias="Link">wt.change2.AffectedActivityData</table>
        <table alias="Task">wt.change2.WTChangeActivity2</table>
        <table alias="Part">wt.part.WTPart</table>
      </from>
      <referenceJoin>
        <join name="roleAObjectRef"><aliasTarget alias="Link"/><aliasTarget alias="Task"/></join>
        <join name="roleBObjectRef"><aliasTarget alias="Link"/><aliasTarget alias="Part"/></join>
      </referenceJoin>
    </query>
  </statement>
</qml>
