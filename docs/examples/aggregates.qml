<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <function name="COUNT" heading="Links"><column alias="Link">lineNumber.value</column></function>
        <function name="MIN" heading="Least"><column alias="Link">quantity.amount</column></function>
        <function name="MAX" heading="Most"><column alias="Link">quantity.amount</column></function>
        <function name="SUM" heading="Pieces"><column alias="Link">quantity.amount</column></function>
        <function name="AVG" heading="Average"><column alias="Link">quantity.amount</column></function>
        <function name="SUM" heading="Line Sum"><column alias="Link">lineNumber.value</column></function>
      </select>
      <from>
        <table alias="Assembly">wt.part.WTPart</table>
        <table alias="Link">wt.part.WTPartUsageLink</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Assembly">master&gt;number</column></operand>
          <operator type="equal"/>
          <operand><constant>P-00000001</constant></operand>
        </condition>
      </where>
      <referenceJoin>
        <join name="roleAObjectRef">
          <aliasTarget alias="Link"/>
          <aliasTarget alias="Assembly"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
