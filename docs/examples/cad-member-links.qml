<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Link" heading="Link Id">thePersistInfo.theObjectIdentifier.id</column>
        <column alias="Link" heading="Assembly Id">roleAObjectRef.key.id</column>
        <column alias="Link" heading="Member Id">roleBObjectRef.key.id</column>
        <column alias="Member" heading="Member Master Id">thePersistInfo.theObjectIdentifier.id</column>
        <column alias="Member" heading="Member Container Id">containerReference.key.id</column>
        <column alias="Member" heading="Member">number</column>
        <column alias="Link" heading="Quantity">quantity.amount</column>
        <column alias="Link" heading="Unit">quantity.unit</column>
        <column alias="Link" heading="Line">lineNumber.value</column>
      </select>
      <from>
        <table alias="Link">wt.epm.structure.EPMMemberLink</table>
        <table alias="Member">wt.epm.EPMDocumentMaster</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Link">lineNumber.value</column></operand>
          <nullOperator type="isNull"/>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Member"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="roleBObjectRef">
          <aliasTarget alias="Link"/>
          <aliasTarget alias="Member"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
