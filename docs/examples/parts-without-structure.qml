<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Part" heading="Number">master&gt;number</column>
        <column alias="Part" heading="Name">master&gt;name</column>
      </select>
      <from>
        <table alias="Part">wt.part.WTPart</table>
        <table alias="Usage" outerJoinAlias="Part">wt.part.WTPartUsageLink</table>
      </from>
      <where>
        <compositeCondition type="and">
          <condition>
            <operand><column alias="Part">iterationInfo.latest</column></operand>
            <operator type="equal"/>
            <operand><constant>true</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Usage">thePersistInfo.theObjectIdentifier.id</column></operand>
            <nullOperator type="isNull"/>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="roleAObjectRef">
          <aliasTarget alias="Usage"/>
          <aliasTarget alias="Part"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
