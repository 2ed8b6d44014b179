<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml>
    <parameter name="state" type="wt.lifecycle.State">
        <parameterDefault isMacro="false">RELEASED</parameterDefault>
    </parameter>
    <statement>
        <query>
            <select>
                <column alias="Part" heading="Number" propertyName="number" type="java.lang.String">master&gt;number</column>
                <column alias="Part" heading="Name" propertyName="name" type="java.lang.String">master&gt;name</column>
                <object alias="Part" heading="Version" propertyName="iterationDisplayIdentifier">
                    <property name="iterationDisplayIdentifier"/>
                </object>
                <object alias="Part" heading="Context Name" propertyName="container.name">
                    <property name="container">
                        <property name="name"/>
                    </property>
                </object>
                <column alias="Part" heading="Material" type="java.lang.String">WCTYPE|wt.part.WTPart~IBA|material</column>
            </select>
            <from>
                <table alias="Part">wt.part.WTPart</table>
            </from>
            <where>
                <compositeCondition type="and">
                    <condition>
                        <operand>
                            <column alias="Part" heading="State" propertyName="lifeCycleState" type="wt.lifecycle.State">state.state</column>
                        </operand>
                        <operator type="equal"/>
                        <operand>
                            <parameterTarget name="state"/>
                        </operand>
                    </condition>
                    <condition>
                        <operand>
                            <column alias="Part" heading="Latest" propertyName="iterationInfo.latest" type="boolean">iterationInfo.latest</column>
                        </operand>
                        <operator type="equal"/>
                        <operand>
                            <constant heading="1" isMacro="false" type="java.lang.Object">1</constant>
                        </operand>
                    </condition>
                </compositeCondition>
            </where>
            <orderBy>
                <orderByItem type="asc">
                    <columnTarget heading="Number"/>
                </orderByItem>
            </orderBy>
        </query>
    </statement>
</qml>
