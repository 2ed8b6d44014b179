<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Doc" heading="Number">master&gt;number</column>
        <function name="TO_NUMBER" heading="Number Value">
          <function name="SUB_STRING">
            <column alias="Doc">master&gt;number</column>
            <constant>8</constant>
          </function>
        </function>
        <function name="TO_NUMBER" heading="Name Value"><column alias="Doc">master&gt;name</column></function>
        <function name="TO_CHAR" heading="Iteration Text"><column alias="Doc">iterationInfo.identifier.iterationId</column></function>
        <function name="NVL" heading="Language">
          <column alias="Doc">WCTYPE|wt.doc.WTDocument~IBA|language</column>
          <constant>n/a</constant>
        </function>
        <function name="COALESCE" heading="Pages">
          <column alias="Doc" type="java.lang.Long">WCTYPE|wt.doc.WTDocument~IBA|pages</column>
          <constant>0</constant>
        </function>
        <function name="TO_CHAR" heading="Pages Text">
          <column alias="Doc" type="java.lang.Long">WCTYPE|wt.doc.WTDocument~IBA|pages</column>
          <constant>FM00000</constant>
        </function>
        <function name="NVL2" heading="Has Pages">
          <column alias="Doc" type="java.lang.Long">WCTYPE|wt.doc.WTDocument~IBA|pages</column>
          <constant>yes</constant>
          <constant>no</constant>
        </function>
        <function name="DECODE" heading="Status">
          <column alias="Doc">state.state</column>
          <constant>INWORK</constant>
          <constant>In work</constant>
          <constant>RELEASED</constant>
          <constant>Released</constant>
          <constant>other</constant>
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
            <operand>
              <function name="TO_NUMBER"><column alias="Doc">master&gt;number</column></function>
            </operand>
            <operator type="lessThanOrEqual"/>
            <operand><constant>3</constant></operand>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
