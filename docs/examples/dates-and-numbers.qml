<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Doc" heading="Number">master&gt;number</column>
        <column alias="Doc" heading="Created">thePersistInfo.createStamp</column>
        <function name="ADD" heading="Review Due">
          <column alias="Doc">thePersistInfo.createStamp</column>
          <constant>14</constant>
        </function>
        <function name="SUBTRACT" heading="Half a Day Before">
          <column alias="Doc">thePersistInfo.modifyStamp</column>
          <constant>0.5</constant>
        </function>
        <function name="ADD" heading="Next Iteration">
          <column alias="Doc">iterationInfo.identifier.iterationId</column>
          <constant>1</constant>
        </function>
        <function name="SUBTRACT" heading="Pages Left">
          <constant type="java.lang.Long">150</constant>
          <column alias="Doc" type="java.lang.Long">WCTYPE|wt.doc.WTDocument~IBA|pages</column>
        </function>
        <function name="SYSDATE" heading="Now"/>
        <constant heading="Today" isMacro="true">CURRENT_DATE</constant>
      </select>
      <from>
        <table alias="Doc">wt.doc.WTDocument</table>
      </from>
      <where>
        <compositeCondition>
          <condition>
            <operand><column alias="Doc">master&gt;number</column></operand>
            <operator type="equal"/>
            <operand><constant>0000000003</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Doc">thePersistInfo.createStamp</column></operand>
            <operator type="lessThan"/>
            <operand><function name="SYSDATE"/></operand>
          </condition>
          <condition>
            <operand><column alias="Doc">thePersistInfo.modifyStamp</column></operand>
            <operator type="lessThanOrEqual"/>
            <operand><constant isMacro="true">CURRENT_TIME</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Doc">thePersistInfo.createStamp</column></operand>
            <operator type="greaterThanOrEqual"/>
            <operand><constant>2026-03-02T10:00:00Z</constant></operand>
          </condition>
        </compositeCondition>
      </where>
    </query>
  </statement>
</qml>
