<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Assembly" heading="Assembly">master&gt;number</column>
        <column alias="Assembly" heading="CAD Type">docType</column>
        <column alias="Member" heading="Member">number</column>
        <column alias="Member" heading="Member Name">name</column>
      </select>
      <from>
        <table alias="Assembly">wt.epm.EPMDocument</table>
        <table alias="Member">wt.epm.EPMDocumentMaster</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Assembly">iterationInfo.latest</column></operand>
          <operator type="equal"/>
          <operand><constant>true</constant></operand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Assembly"/></orderByItem>
        <orderByItem><columnTarget heading="Member"/></orderByItem>
      </orderBy>
      <linkJoin>
        <join name="wt.epm.structure.EPMMemberLink">
          <aliasTarget alias="Assembly"/>
          <aliasTarget alias="Member"/>
        </join>
      </linkJoin>
    </query>
  </statement>
</qml>
