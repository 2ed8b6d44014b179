<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE qml SYSTEM "/wt/query/qml/qml.dtd">
<qml>
    <statement>
        <query>
            <select group="true">
                <column alias="Doc" heading="State" propertyName="lifeCycleState" type="wt.lifecycle.State">state.state</column>
                <function heading="Files" name="COUNT" type="long">
                    <column alias="File" heading="File Id" type="long">thePersistInfo.theObjectIdentifier.id</column>
                </function>
                <function heading="Bytes" name="SUM" type="long">
                    <column alias="File" heading="Size" propertyName="fileSize" type="long">fileSize</column>
                </function>
            </select>
            <from>
                <table alias="Doc">wt.doc.WTDocument</table>
                <table alias="File">wt.content.ApplicationData</table>
            </from>
            <where>
                <condition>
                    <operand><column alias="Doc" heading="Latest" type="boolean">iterationInfo.latest</column></operand>
                    <operator type="equal"/>
                    <operand><constant isMacro="false" type="java.lang.Object">1</constant></operand>
                </condition>
            </where>
            <orderBy>
                <orderByItem type="desc"><columnTarget heading="Bytes"/></orderByItem>
            </orderBy>
            <linkJoin>
                <join name="wt.content.HolderToContent">
                    <aliasTarget alias="Doc"/>
                    <aliasTarget alias="File"/>
                </join>
            </linkJoin>
        </query>
    </statement>
</qml>
