<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <parameter name="modifier" type="java.lang.String">
    <parameterDefault isMacro="true">CURRENT_USER_NAME</parameterDefault>
  </parameter>
  <statement>
    <query>
      <select distinct="true">
        <column alias="Doc" heading="Number">master&gt;number</column>
        <column alias="Creator" heading="Created By">fullName</column>
        <column alias="Modifier" heading="Modified By">fullName</column>
      </select>
      <from>
        <table alias="Doc">wt.doc.WTDocument</table>
        <table alias="Creator">wt.org.WTUser</table>
        <table alias="Modifier">wt.org.WTUser</table>
      </from>
      <where>
        <compositeCondition>
          <condition>
            <operand><column alias="Doc">iterationInfo.creator.key.id</column></operand>
            <operator type="equal"/>
            <operand><constant isMacro="true">CURRENT_USER</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Modifier">name</column></operand>
            <operator type="equal"/>
            <operand><parameterTarget name="modifier"/></operand>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="iterationInfo.creator">
          <aliasTarget alias="Doc"/>
          <aliasTarget alias="Creator"/>
        </join>
        <join name="iterationInfo.modifier">
          <aliasTarget alias="Doc"/>
          <aliasTarget alias="Modifier"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
