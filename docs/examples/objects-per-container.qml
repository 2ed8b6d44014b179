<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select group="true">
        <column alias="Context" heading="Container">containerInfo.name</column>
        <object alias="Object" heading="Type" propertyName="displayType"/>
        <function name="count" heading="Objects"/>
      </select>
      <from>
        <table alias="Object">wt.enterprise.RevisionControlled</table>
        <table alias="Context">wt.inf.container.WTContainer</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Object">iterationInfo.latest</column></operand>
          <operator type="equal"/>
          <operand><constant>1</constant></operand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Container"/></orderByItem>
        <orderByItem><columnTarget heading="Type"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="containerReference">
          <aliasTarget alias="Object"/>
          <aliasTarget alias="Context"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
