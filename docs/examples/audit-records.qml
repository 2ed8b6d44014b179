<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Event" heading="Time">eventTime</column>
        <column alias="Event" heading="User">userName</column>
        <object alias="Event" heading="Full Name" propertyName="userFullName"/>
        <column alias="Event" heading="Action">eventKey</column>
        <column alias="Event" heading="Object Class">targetType</column>
        <column alias="Event" heading="Object">targetName</column>
        <object alias="Event" heading="Container" propertyName="containerName"/>
      </select>
      <from>
        <table alias="Event">wt.audit.AuditRecord</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Event">eventTime</column></operand>
          <operator type="lessThan"/>
          <operand><constant>2026-11-02T00:00:00Z</constant></operand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Time"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
