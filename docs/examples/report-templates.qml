<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Template" heading="Id">thePersistInfo.theObjectIdentifier.id</column>
        <column alias="Template" heading="Name">name</column>
        <column alias="Template" heading="Description">description</column>
        <column alias="Template" heading="Container Id">containerReference.key.id</column>
        <column alias="Context" heading="Context Id">thePersistInfo.theObjectIdentifier.id</column>
        <column alias="Context" heading="Container">name</column>
      </select>
      <from>
        <table alias="Template">wt.query.template.ReportTemplate</table>
        <table alias="Context">wt.inf.container.WTContainer</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Template">name</column></operand>
          <inOperator type="in"/>
          <inOperand>
            <delimitedList>
              <constant>Documents by number, Released parts, Part structure</constant>
              <constant>Files per state, My recent work</constant>
            </delimitedList>
          </inOperand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Name"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="containerReference">
          <aliasTarget alias="Template"/>
          <aliasTarget alias="Context"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
