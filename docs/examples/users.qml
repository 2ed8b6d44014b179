<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <parameter name="names" type="java.lang.String">
    <parameterDefault>admin; alice; bob; carol</parameterDefault>
  </parameter>
  <statement>
    <query>
      <select>
        <column alias="User" heading="Id">thePersistInfo.theObjectIdentifier.id</column>
        <column alias="User" heading="Name">name</column>
        <column alias="User" heading="Full Name">fullName</column>
        <column alias="User" heading="E-mail" propertyName="eMail"/>
        <column alias="User" heading="Disabled">disabled</column>
      </select>
      <from>
        <table alias="User">wt.org.WTUser</table>
      </from>
      <where>
        <compositeCondition type="and">
          <condition>
            <operand><column alias="User">name</column></operand>
            <inOperator type="in"/>
            <inOperand><delimitedList delimiter=";"><parameterTarget name="names"/></delimitedList></inOperand>
          </condition>
          <condition>
            <operand><column alias="User">name</column></operand>
            <inOperator type="notIn"/>
            <inOperand><delimitedList><constant>admin</constant></delimitedList></inOperand>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Name"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
