<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml bypassAccessControl="false">
    <parameter name="number" type="java.lang.String">
        <parameterDefault isMacro="false">*</parameterDefault>
    </parameter>
    <statement>
        <query>
            <select distinct="false" group="false">
                <object alias="Document" heading="Document" propertyName=""/>
                <column alias="Document" heading="Number" isExternal="false" propertyName="number" selectOnly="false" type="java.lang.String">
                    master&gt;number
                </column>
                <column alias="Document" heading="Name" propertyName="name" type="java.lang.String">master&gt;name</column>
                <column alias="Document" heading="State" propertyName="lifeCycleState" type="wt.lifecycle.State">state.state</column>
                <column alias="Document" heading="Last Modified" propertyName="modifyTimestamp" type="java.sql.Timestamp">thePersistInfo.modifyStamp</column>
            </select>
            <from>
                <table alias="Document" isExternal="false">
                    wt.doc.WTDocument
                </table>
            </from>
            <where>
                <compositeCondition type="and">
                    <condition>
                        <operand>
                            <column alias="Document" heading="Number" propertyName="number" type="java.lang.String">master&gt;number</column>
                        </operand>
                        <operator type="like"/>
                        <operand>
                            <parameterTarget name="number"/>
                        </operand>
                    </condition>
                    <condition>
                        <operand>
                            <column alias="Document" heading="Iteration (iterationInfo).Latest" propertyName="iterationInfo.latest" type="boolean">iterationInfo.latest</column>
                        </operand>
                        <operator type="equal"/>
                        <operand>
                            <constant heading="1" isMacro="false" type="java.lang.Object" xml:space="preserve">1</constant>
                        </operand>
                    </condition>
                </compositeCondition>
            </where>
            <orderBy>
                <orderByItem>
                    <columnTarget heading="Number"/>
                </orderByItem>
            </orderBy>
        </query>
    </statement>
</qml>
