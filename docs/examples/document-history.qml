<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Document" heading="Number">master&gt;number</column>
        <column alias="Document" heading="Latest Version">versionInfo.identifier.versionId</column>
        <column alias="Document" heading="Latest Iteration">iterationInfo.identifier.iterationId</column>
        <column alias="Event" heading="Time">eventTime</column>
        <column alias="Event" heading="User">userName</column>
        <column alias="Event" heading="Action">eventKey</column>
        <object alias="Event" heading="Event"/>
      </select>
      <from>
        <table alias="Event">wt.audit.AuditRecord</table>
        <table alias="Document">wt.doc.WTDocument</table>
      </from>
      <where>
        <compositeCondition>
          <condition>
            <operand><column alias="Document">master&gt;number</column></operand>
            <operator type="equal"/>
            <operand><constant>0000000001</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Document" type="boolean">iterationInfo.latest</column></operand>
            <operator type="equal"/>
            <operand><constant>1</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Event">eventTime</column></operand>
            <operator type="lessThan"/>
            <operand><constant>2026-11-02T00:00:00Z</constant></operand>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem type="desc"><columnTarget heading="Time"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="targetReference">
          <aliasTarget alias="Event"/>
          <aliasTarget alias="Document"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
