<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml bypassAccessControl="false">
    <parameter name="costCenter" type="java.lang.String">
        <parameterDefault isMacro="false">CC-1*</parameterDefault>
    </parameter>
    <statement>
        <query>
            <select distinct="false" group="false">
                <column alias="Part" heading="Number" propertyName="number" type="java.lang.String">master&gt;number</column>
                <column alias="Part" heading="Cost Center" propertyName="acmeCostCenter" type="java.lang.String">acmeCostCenter</column>
                <column alias="Part" heading="Unit Cost" propertyName="acmeUnitCost" type="double">acmeUnitCost</column>
                <column alias="Supplier" heading="Supplier" propertyName="name" type="java.lang.String">name</column>
            </select>
            <from>
                <table alias="Part" isExternal="false">wt.part.WTPart</table>
                <table alias="Supplier" isExternal="false">com.ptc.windchill.suma.supplier.Supplier</table>
            </from>
            <where>
                <compositeCondition type="and">
                    <condition>
                        <operand>
                            <column alias="Part" heading="Cost Center" propertyName="acmeCostCenter" type="java.lang.String">acmeCostCenter</column>
                        </operand>
                        <operator type="like"/>
                        <operand>
                            <parameterTarget name="costCenter"/>
                        </operand>
                    </condition>
                    <condition>
                        <operand>
                            <column alias="Part" heading="Latest" propertyName="iterationInfo.latest" type="boolean">iterationInfo.latest</column>
                        </operand>
                        <operator type="equal"/>
                        <operand>
                            <constant isMacro="false" type="java.lang.Object">1</constant>
                        </operand>
                    </condition>
                </compositeCondition>
            </where>
            <orderBy>
                <orderByItem type="asc">
                    <columnTarget heading="Number"/>
                </orderByItem>
            </orderBy>
            <referenceJoin>
                <join name="acmeSupplier">
                    <aliasTarget alias="Part"/>
                    <aliasTarget alias="Supplier"/>
                </join>
            </referenceJoin>
        </query>
    </statement>
</qml>
