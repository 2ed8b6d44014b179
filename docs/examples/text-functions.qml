<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Doc" heading="Number">master&gt;number</column>
        <function name="UPPER" heading="Upper"><column alias="Doc">master&gt;name</column></function>
        <function name="LOWER" heading="Lower"><column alias="Doc">state.state</column></function>
        <function name="CONCAT" heading="Label">
          <column alias="Doc">master&gt;number</column>
          <constant>/</constant>
          <column alias="Doc">versionInfo.identifier.versionId</column>
          <constant>.</constant>
          <column alias="Doc">iterationInfo.identifier.iterationId</column>
        </function>
        <function name="SUBSTRING" heading="First Word">
          <column alias="Doc">master&gt;name</column>
          <constant>1</constant>
          <constant>5</constant>
        </function>
        <function name="LENGTH" heading="Length"><column alias="Doc">master&gt;name</column></function>
      </select>
      <from>
        <table alias="Doc">wt.doc.WTDocument</table>
      </from>
      <where>
        <compositeCondition>
          <condition>
            <operand><column alias="Doc">master&gt;number</column></operand>
            <operator type="like"/>
            <operand><constant>00000000*</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Doc">iterationInfo.latest</column></operand>
            <operator type="equal"/>
            <operand><constant>1</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Doc">master&gt;name</column></operand>
            <operator type="notLike"/>
            <operand><constant>*plan*</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Doc">state.state</column></operand>
            <operator type="notEqual"/>
            <operand><constant>OBSOLETE</constant></operand>
          </condition>
          <condition>
            <operand><function name="LENGTH"><column alias="Doc">master&gt;name</column></function></operand>
            <operator type="greaterThanOrEqual"/>
            <operand><constant>18</constant></operand>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
