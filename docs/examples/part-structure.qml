<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml bypassAccessControl="false">
    <statement>
        <query>
            <select distinct="false" group="false">
                <column alias="using" heading="Using Number" propertyName="number" type="java.lang.String">
					master&gt;number
				</column>
                <column alias="usedMaster" heading="Used Number" propertyName="number" type="java.lang.String">number</column>
                <column alias="usedMaster" heading="Used Name" propertyName="name" type="java.lang.String">name</column>
                <column alias="link" heading="Quantity" propertyName="quantity.amount" type="double">quantity.amount</column>
                <column alias="link" heading="Line" propertyName="lineNumber.value" type="long">lineNumber.value</column>
            </select>
            <from>
                <table alias="using">wt.part.WTPart</table>
                <table alias="link">wt.part.WTPartUsageLink</table>
                <table alias="usedMaster">wt.part.WTPartMaster</table>
            </from>
            <where>
                <condition>
                    <operand>
                        <column alias="using" heading="Latest" propertyName="iterationInfo.latest" type="boolean">iterationInfo.latest</column>
                    </operand>
                    <operator type="equal"/>
                    <operand>
                        <constant heading="1" isMacro="false" type="java.lang.Object" xml:space="preserve">1</constant>
                    </operand>
                </condition>
            </where>
            <orderBy>
                <orderByItem><columnTarget heading="Using Number"/></orderByItem>
                <orderByItem><columnTarget heading="Line"/></orderByItem>
            </orderBy>
            <referenceJoin>
                <join name="roleAObjectRef">
                    <aliasTarget alias="link"/>
                    <aliasTarget alias="using"/>
                </join>
                <join name="roleBObjectRef">
                    <aliasTarget alias="link"/>
                    <aliasTarget alias="usedMaster"/>
                </join>
            </referenceJoin>
        </query>
    </statement>
</qml>
