<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Part" heading="Number">master&gt;number</column>
        <column alias="Part" heading="Name">master&gt;name</column>
        <column alias="Library" heading="Library">name</column>
        <column alias="Library" heading="Library Description">description</column>
      </select>
      <from>
        <table alias="Part">wt.part.WTPart</table>
        <table alias="Library">wt.inf.library.WTLibrary</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Part">iterationInfo.latest</column></operand>
          <operator type="equal"/>
          <operand><constant>1</constant></operand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="containerReference">
          <aliasTarget alias="Part"/>
          <aliasTarget alias="Library"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
