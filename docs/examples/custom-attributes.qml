<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Object" heading="Number">master&gt;number</column>
        <column alias="Object" heading="Language">WCTYPE|wt.doc.WTDocument~IBA|language</column>
        <column alias="Object" heading="Pages" type="java.lang.Long">WCTYPE|wt.doc.WTDocument~IBA|pages</column>
        <column alias="Object" heading="Weight" type="java.lang.Double">WCTYPE|wt.part.WTPart|com.example.Part~MBA|weight</column>
      </select>
      <from>
        <table alias="Object">wt.enterprise.RevisionControlled</table>
      </from>
      <where>
        <compositeCondition type="or">
          <condition>
            <operand><column alias="Object" type="java.lang.Long">WCTYPE|wt.doc.WTDocument~IBA|pages</column></operand>
            <operator type="greaterThan"/>
            <operand><constant>100</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Object" type="java.lang.Double">WCTYPE|wt.part.WTPart~MBA|weight</column></operand>
            <nullOperator type="isNotNull"/>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
