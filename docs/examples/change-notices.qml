<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <parameter name="priority" type="java.lang.String">
    <parameterDefault>*</parameterDefault>
  </parameter>
  <statement>
    <query>
      <select>
        <column alias="Change Notice (wt.change2.WTChangeOrder2)" heading="Change Notice">number</column>
        <object alias="Change Notice (wt.change2.WTChangeOrder2)" heading="Type" propertyName="displayType"/>
        <column alias="Change Notice (wt.change2.WTChangeOrder2)" heading="Priority">thePriority</column>
        <column alias="Change Notice (wt.change2.WTChangeOrder2)" heading="Need Date" type="java.sql.Timestamp">needDate</column>
        <column alias="Change Task (wt.change2.WTChangeActivity2)" heading="Task">number</column>
        <column alias="Change Task (wt.change2.WTChangeActivity2)" heading="Task State">state.state</column>
        <object alias="Affected (wt.enterprise.RevisionControlled)" heading="Affected" propertyName="number"/>
        <object alias="Affected (wt.enterprise.RevisionControlled)" heading="Affected Type" propertyName="thePersistInfo.theObjectIdentifier.classname"/>
      </select>
      <from>
        <table alias="Change Notice (wt.change2.WTChangeOrder2)">wt.change2.WTChangeOrder2</table>
        <table alias="Change Task (wt.change2.WTChangeActivity2)">wt.change2.WTChangeActivity2</table>
        <table alias="Affected (wt.enterprise.RevisionControlled)">wt.enterprise.RevisionControlled</table>
      </from>
      <where>
        <compositeCondition type="and">
          <condition>
            <operand><column alias="Change Notice (wt.change2.WTChangeOrder2)">thePriority</column></operand>
            <operator type="like"/>
            <operand><parameterTarget name="priority"/></operand>
          </condition>
          <condition>
            <operand><column alias="Affected (wt.enterprise.RevisionControlled)">iterationInfo.latest</column></operand>
            <operator type="equal"/>
            <operand><constant>true</constant></operand>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Change Notice"/></orderByItem>
        <orderByItem><columnTarget heading="Task"/></orderByItem>
        <orderByItem><columnTarget heading="Affected"/></orderByItem>
      </orderBy>
      <linkJoin>
        <join name="wt.change2.IncludedIn2">
          <aliasTarget alias="Change Notice (wt.change2.WTChangeOrder2)"/>
          <aliasTarget alias="Change Task (wt.change2.WTChangeActivity2)"/>
        </join>
        <join name="wt.change2.AffectedActivityData">
          <aliasTarget alias="Change Task (wt.change2.WTChangeActivity2)"/>
          <aliasTarget alias="Affected (wt.enterprise.RevisionControlled)"/>
        </join>
      </linkJoin>
    </query>
  </statement>
</qml>
