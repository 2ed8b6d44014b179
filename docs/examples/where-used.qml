<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <parameter name="number" type="java.lang.String">
    <parameterDefault>STD-000001</parameterDefault>
  </parameter>
  <statement>
    <query>
      <select>
        <column alias="Used" heading="Used">number</column>
        <column alias="Parent" heading="Used By">master&gt;number</column>
        <column alias="Parent" heading="Name">master&gt;name</column>
      </select>
      <from>
        <table alias="Parent">wt.part.WTPart</table>
        <table alias="Used">wt.part.WTPartMaster</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Used">number</column></operand>
          <operator type="equal"/>
          <operand><parameterTarget name="number"/></operand>
        </condition>
      </where>
      <linkJoin>
        <join name="wt.part.WTPartUsageLink">
          <aliasTarget alias="Parent"/>
          <aliasTarget alias="Used"/>
        </join>
      </linkJoin>
    </query>
  </statement>
</qml>
