<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Master" heading="Number">number</column>
        <column alias="Master" heading="Name">name</column>
        <object alias="Document" heading="Version" propertyName="iterationDisplayIdentifier"/>
        <column alias="Document" heading="State">state.state</column>
        <column alias="Document" heading="Latest">iterationInfo.latest</column>
      </select>
      <from>
        <table alias="Document">wt.doc.WTDocument</table>
        <table alias="Master">wt.doc.WTDocumentMaster</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Master">number</column></operand>
          <operator type="equal"/>
          <operand><constant>0000000001</constant></operand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Version"/></orderByItem>
      </orderBy>
      <linkJoin>
        <join name="wt.vc.MasterIteration"><aliasTarget alias="Document"/><aliasTarget alias="Master"/></join>
      </linkJoin>
    </query>
  </statement>
</qml>
