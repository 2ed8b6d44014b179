<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select distinct="true">
        <column alias="Product" heading="Product">name</column>
        <column alias="Master" heading="Master Id">thePersistInfo.theObjectIdentifier.id</column>
        <column alias="Master" heading="Number">number</column>
        <column alias="Master" heading="Name">name</column>
        <column alias="Master" heading="Container Id">containerReference.key.id</column>
      </select>
      <from>
        <table alias="Doc">wt.doc.WTDocument</table>
        <table alias="Master">wt.doc.WTDocumentMaster</table>
        <table alias="Product">wt.pdmlink.PDMLinkProduct</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Master">number</column></operand>
          <operator type="like"/>
          <operand><constant>000000000?</constant></operand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="masterReference">
          <aliasTarget alias="Doc"/>
          <aliasTarget alias="Master"/>
        </join>
        <join name="containerReference">
          <aliasTarget alias="Master"/>
          <aliasTarget alias="Product"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
