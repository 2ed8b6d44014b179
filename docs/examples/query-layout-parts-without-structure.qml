<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="false" mainType="Part" joinModel="false">
  <query>
    <selectOrConstrain distinct="false" group="false">
      <reportAttribute heading="Number" reportAttributeId="Number" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
        <column alias="Part" type="java.lang.String" propertyName="number">master&gt;number</column>
      </reportAttribute>
      <reportAttribute heading="Name" reportAttributeId="Name" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
        <column alias="Part" type="java.lang.String" propertyName="name">master&gt;name</column>
      </reportAttribute>
    </selectOrConstrain>
    <from>
      <table alias="Part">wt.part.WTPart</table>
      <table alias="Usage">wt.part.WTPartUsageLink</table>
    </from>
    <where>
      <compositeCondition type="and">
        <condition>
          <standardCondition>
            <operand><column alias="Part" type="boolean">iterationInfo.latest</column></operand>
            <operator type="equal"/>
            <operand><constant type="boolean" isMacro="false">true</constant></operand>
          </standardCondition>
        </condition>
        <condition>
          <nullCondition>
            <operand><column alias="Usage" type="long">thePersistInfo.theObjectIdentifier.id</column></operand>
            <nullOperator type="isNull"/>
          </nullCondition>
        </condition>
      </compositeCondition>
    </where>
    <orderBy>
      <orderByItem type="asc"><reportAttributeReference id="Number"/></orderByItem>
    </orderBy>
    <referenceJoin>
      <join name="roleAObjectRef" outerJoinAlias="Usage">
        <fromAliasTarget alias="Usage"/>
        <toAliasTarget alias="Part"/>
      </join>
    </referenceJoin>
  </query>
</qml>
