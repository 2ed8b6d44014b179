<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Shared (wt.ufid.Federatable)" heading="Name">name</column>
        <object alias="Shared (wt.ufid.Federatable)" heading="Type" propertyName="displayType"/>
        <object alias="Shared (wt.ufid.Federatable)" heading="Object" propertyName=""/>
      </select>
      <from>
        <table alias="Shared (wt.ufid.Federatable)">wt.ufid.Federatable</table>
      </from>
      <where>
        <compositeCondition type="or">
          <condition>
            <operand><column alias="Shared (wt.ufid.Federatable)">name</column></operand>
            <operator type="like"/>
            <operand><constant>M6*</constant></operand>
          </condition>
          <condition>
            <operand><column alias="Shared (wt.ufid.Federatable)">name</column></operand>
            <operator type="equal"/>
            <operand><constant>carol</constant></operand>
          </condition>
        </compositeCondition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Type"/></orderByItem>
        <orderByItem><columnTarget heading="Name"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
