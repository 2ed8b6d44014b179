<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="false" addTimeToDateFields="false" mainType="Part" joinModel="false" xsi:noNamespaceSchemaLocation="qml.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <query>
        <selectOrConstrain distinct="false" group="false">
            <layoutSectionHeader layoutSectionId="Using" text="Using part"/>
            <reportAttribute heading="Using Number" reportAttributeId="Using_Number" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="using" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column>
            </reportAttribute>
            <layoutSectionHeader layoutSectionId="Used" text="Used part"/>
            <reportAttribute heading="Used Number" reportAttributeId="Used_Number" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="usedMaster" isExternal="false" type="java.lang.String" propertyName="number">number</column>
            </reportAttribute>
            <reportAttribute heading="Used Name" reportAttributeId="Used_Name" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="usedMaster" isExternal="false" type="java.lang.String" propertyName="name">name</column>
            </reportAttribute>
            <reportAttribute heading="Quantity" reportAttributeId="Quantity" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="link" isExternal="false" type="double" propertyName="quantity.amount">quantity.amount</column>
            </reportAttribute>
            <reportAttribute heading="Line" reportAttributeId="Line" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
                <column alias="link" isExternal="false" type="long" propertyName="lineNumber.value">lineNumber.value</column>
            </reportAttribute>
        </selectOrConstrain>
        <from>
            <table alias="using" isExternal="false" xposition="0px" yposition="40px">wt.part.WTPart</table>
            <table alias="link" isExternal="false" xposition="300px" yposition="40px">wt.part.WTPartUsageLink</table>
            <table alias="usedMaster" isExternal="false" xposition="600px" yposition="40px">wt.part.WTPartMaster</table>
        </from>
        <where>
            <condition>
                <standardCondition>
                    <operand>
                        <column alias="using" isExternal="false" type="boolean" propertyName="latestIteration">iterationInfo.latest</column>
                    </operand>
                    <operator type="equal"/>
                    <operand>
                        <constant type="boolean" isMacro="false" xml:space="preserve">1</constant>
                    </operand>
                </standardCondition>
            </condition>
        </where>
        <orderBy>
            <orderByItem type="asc">
                <reportAttributeReference id="Using_Number"/>
            </orderByItem>
            <orderByItem type="asc">
                <reportAttributeReference id="Line"/>
            </orderByItem>
        </orderBy>
        <referenceJoin>
            <join name="roleAObjectRef">
                <fromAliasTarget alias="link"/>
                <toAliasTarget alias="using"/>
            </join>
            <join name="roleBObjectRef">
                <fromAliasTarget alias="link"/>
                <toAliasTarget alias="usedMaster"/>
            </join>
        </referenceJoin>
        <descriptionForExport>What each latest part uses, line by line.</descriptionForExport>
    </query>
</qml>
