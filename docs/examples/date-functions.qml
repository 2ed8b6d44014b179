<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Doc" heading="Number">master&gt;number</column>
        <function name="TO_CHAR" heading="Created">
          <column alias="Doc">thePersistInfo.createStamp</column>
          <constant>DD-MON-YYYY HH24:MI</constant>
        </function>
        <function name="TO_CHAR" heading="Created On">
          <column alias="Doc">thePersistInfo.createStamp</column>
          <constant>FMDay, Month DD, YYYY</constant>
        </function>
        <function name="TO_CHAR" heading="Modified"><column alias="Doc">thePersistInfo.modifyStamp</column></function>
        <function name="TRUNC" heading="Modified Day"><column alias="Doc">thePersistInfo.modifyStamp</column></function>
        <function name="TRUNC" heading="Modified Month">
          <column alias="Doc">thePersistInfo.modifyStamp</column>
          <constant>MM</constant>
        </function>
        <function name="ADD_MONTHS" heading="Review">
          <column alias="Doc">thePersistInfo.createStamp</column>
          <constant>6</constant>
        </function>
        <function name="LAST_DAY" heading="Month End"><column alias="Doc">thePersistInfo.createStamp</column></function>
        <function name="NEXT_DAY" heading="Next Friday">
          <column alias="Doc">thePersistInfo.createStamp</column>
          <constant>FRIDAY</constant>
        </function>
        <function name="MONTHS_BETWEEN" heading="Months to June">
          <function name="TO_DATE"><constant>2026-06-02</constant></function>
          <column alias="Doc">thePersistInfo.createStamp</column>
        </function>
        <function name="MONTHS_BETWEEN" heading="Months to Deadline">
          <function name="TO_DATE">
            <constant>17.04.2026</constant>
            <constant>DD.MM.YYYY</constant>
          </function>
          <column alias="Doc">thePersistInfo.createStamp</column>
        </function>
        <function name="SUBTRACT" heading="Days Worked">
          <column alias="Doc">thePersistInfo.modifyStamp</column>
          <column alias="Doc">thePersistInfo.createStamp</column>
        </function>
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
            <operand>
              <function name="TO_CHAR">
                <column alias="Doc">thePersistInfo.createStamp</column>
                <constant>YYYY</constant>
              </function>
            </operand>
            <operator type="equal"/>
            <operand><constant>2026</constant></operand>
          </condition>
          <condition>
            <operand><function name="TRUNC"><column alias="Doc">thePersistInfo.createStamp</column></function></operand>
            <operator type="equal"/>
            <operand><function name="TO_DATE"><constant>2026-03-02</constant></function></operand>
          </condition>
        </compositeCondition>
      </where>
    </query>
  </statement>
</qml>
