<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Doc" heading="Number">master&gt;number</column>
        <function name="SUB_STRING" heading="Short Number">
          <column alias="Doc">master&gt;number</column>
          <constant>7</constant>
        </function>
        <function name="LTRIM" heading="Without Zeros">
          <column alias="Doc">master&gt;number</column>
          <constant>0</constant>
        </function>
        <function name="INITCAP" heading="Title"><column alias="Doc">master&gt;name</column></function>
        <function name="INSTR" heading="Where unit">
          <column alias="Doc">master&gt;name</column>
          <constant>unit</constant>
        </function>
        <function name="REPLACE" heading="Short Name">
          <function name="LOWER"><column alias="Doc">master&gt;name</column></function>
          <constant>specification</constant>
          <constant>spec</constant>
        </function>
        <function name="REPLACE" heading="Without Unit">
          <column alias="Doc">master&gt;name</column>
          <constant>unit</constant>
        </function>
        <function name="TRANSLATE" heading="State Code">
          <column alias="Doc">state.state</column>
          <constant>AEIOU</constant>
          <constant>aeiou</constant>
        </function>
        <function name="LPAD" heading="Iteration">
          <column alias="Doc">iterationInfo.identifier.iterationId</column>
          <constant>3</constant>
          <constant>0</constant>
        </function>
        <function name="RPAD" heading="State">
          <column alias="Doc">state.state</column>
          <constant>12</constant>
          <constant>.</constant>
        </function>
        <function name="TRIM" heading="Trimmed">
          <function name="LPAD">
            <column alias="Doc">versionInfo.identifier.versionId</column>
            <constant>3</constant>
          </function>
        </function>
        <function name="RTRIM" heading="Without Trailing s">
          <column alias="Doc">master&gt;name</column>
          <constant>ns</constant>
        </function>
      </select>
      <from>
        <table alias="Doc">wt.doc.WTDocument</table>
      </from>
      <where>
        <compositeCondition>
          <condition>
            <operand><column alias="Doc">iterationInfo.latest</column></operand>
            <operator type="equal"/>
            <operand><constant>1</constant></operand>
          </condition>
          <condition>
            <operand><function name="SUBSTR"><column alias="Doc">master&gt;number</column><constant>1</constant><constant>9</constant></function></operand>
            <operator type="equal"/>
            <operand><constant>000000000</constant></operand>
          </condition>
          <condition>
            <operand><function name="TRIM"><column alias="Doc">state.state</column></function></operand>
            <operator type="notEqual"/>
            <operand><constant>OBSOLETE</constant></operand>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
