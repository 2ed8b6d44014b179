<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <parameter name="roles" type="java.lang.String">
    <parameterDefault>PRIMARY,SECONDARY</parameterDefault>
  </parameter>
  <statement>
    <query>
      <select>
        <column alias="Doc" heading="Number">master&gt;number</column>
        <column alias="File" heading="File">fileName</column>
        <column alias="File" heading="Role">role</column>
        <column alias="File" heading="Type">mimeType</column>
        <column alias="File" heading="Bytes">fileSize</column>
        <column alias="File" heading="File Id">thePersistInfo.theObjectIdentifier.id</column>
        <column alias="File" heading="Stored">thePersistInfo.createStamp</column>
        <column alias="File" heading="Changed">thePersistInfo.modifyStamp</column>
        <column alias="Holds" heading="Link Id">thePersistInfo.theObjectIdentifier.id</column>
        <column alias="Holds" heading="Holder Id">roleAObjectRef.key.id</column>
        <column alias="Holds" heading="Content Id">roleBObjectRef.key.id</column>
      </select>
      <from>
        <table alias="Doc">wt.doc.WTDocument</table>
        <table alias="Holds">wt.content.HolderToContent</table>
        <table alias="File">wt.content.ApplicationData</table>
      </from>
      <where>
        <compositeCondition>
          <condition>
            <operand><column alias="Doc">master&gt;number</column></operand>
            <operator type="equal"/>
            <operand><constant>0000000001</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Doc">iterationInfo.latest</column></operand>
            <operator type="equal"/>
            <operand><constant>1</constant></operand>
          </condition>
          <condition>
            <operand><column alias="File">role</column></operand>
            <inOperator type="in"/>
            <inOperand><delimitedList><parameterTarget name="roles"/></delimitedList></inOperand>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="File"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="roleAObjectRef">
          <aliasTarget alias="Holds"/>
          <aliasTarget alias="Doc"/>
        </join>
        <join name="roleBObjectRef">
          <aliasTarget alias="Holds"/>
          <aliasTarget alias="File"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
