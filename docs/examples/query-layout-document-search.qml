<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="true" addTimeToDateFields="false" forAdvancedSearch="true" mainType="Document" joinModel="false">
  <query>
    <selectOrConstrain distinct="false" group="false">
      <reportAttribute heading="Number" reportAttributeId="Number" userCanSelect="true" userCanConstrain="true" alwaysSelect="true" defaultValue="" constantValue="" isMacro="false">
        <column alias="Document" type="java.lang.String" propertyName="number">master&gt;number</column>
      </reportAttribute>
      <reportAttribute heading="Name" reportAttributeId="Name" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
        <column alias="Document" type="java.lang.String" propertyName="name">master&gt;name</column>
      </reportAttribute>
      <reportAttribute heading="State" reportAttributeId="State" userCanSelect="true" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
        <column alias="Document" type="wt.lifecycle.State" propertyName="lifeCycleState">state.state</column>
      </reportAttribute>
      <reportAttribute heading="Latest" reportAttributeId="Latest" userCanSelect="false" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="true" isMacro="false">
        <column alias="Document" type="boolean" propertyName="latestIteration">iterationInfo.latest</column>
      </reportAttribute>
      <reportAttribute heading="Text" reportAttributeId="Text" userCanSelect="false" userCanConstrain="true" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
        <parameterValue type="java.lang.String" enumIdentifier=""/>
      </reportAttribute>
    </selectOrConstrain>
    <from>
      <table alias="Document" isExternal="false">wt.doc.WTDocument</table>
    </from>
    <where>
      <compositeCondition type="or">
        <condition>
          <standardCondition>
            <operand><column alias="Document" type="java.lang.String">master&gt;name</column></operand>
            <operator type="like"/>
            <operand><reportAttributeReference id="Text"/></operand>
          </standardCondition>
        </condition>
        <condition>
          <standardCondition>
            <operand><column alias="Document" type="java.lang.String">master&gt;number</column></operand>
            <operator type="like"/>
            <operand><reportAttributeReference id="Text"/></operand>
          </standardCondition>
        </condition>
      </compositeCondition>
    </where>
    <orderBy>
      <orderByItem type="asc"><reportAttributeReference id="Number"/></orderByItem>
    </orderBy>
    <descriptionForExport>Latest documents; Number, Name and State constrain, Text searches names and numbers.</descriptionForExport>
  </query>
</qml>
