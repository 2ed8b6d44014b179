<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<qml bypassAccessControl="false" caseInsensitive="false" mainType="Software Part" joinModel="false">
  <query>
    <selectOrConstrain distinct="false" group="false">
      <reportAttribute heading="Number" reportAttributeId="Number" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
        <column alias="Software Part" type="java.lang.String" propertyName="number">master&gt;number</column>
      </reportAttribute>
      <reportAttribute heading="Firmware" reportAttributeId="Firmware" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
        <column alias="Software Part" type="java.lang.String" propertyName="WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~MBA|typeInfoWTPart.ptc_str_1">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~MBA|typeInfoWTPart.ptc_str_1</column>
      </reportAttribute>
      <reportAttribute heading="Memory (kB)" reportAttributeId="Memory" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
        <column alias="Software Part" type="java.lang.Long" propertyName="WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~MBA|typeInfoWTPart.ptc_lng_1">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~MBA|typeInfoWTPart.ptc_lng_1</column>
      </reportAttribute>
      <reportAttribute heading="Signed" reportAttributeId="Signed" userCanSelect="true" userCanConstrain="false" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">
        <column alias="Software Part" type="java.lang.Boolean" propertyName="WCTYPE|wt.part.WTPart|com.acme.BootloaderPart~MBA|typeInfoWTPart.ptc_bln_1">WCTYPE|wt.part.WTPart|com.acme.BootloaderPart~MBA|typeInfoWTPart.ptc_bln_1</column>
      </reportAttribute>
    </selectOrConstrain>
    <from>
      <table alias="Software Part">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart</table>
    </from>
    <where>
      <condition>
        <standardCondition>
          <operand><column alias="Software Part" type="boolean">iterationInfo.latest</column></operand>
          <operator type="equal"/>
          <operand><constant type="boolean" isMacro="false">true</constant></operand>
        </standardCondition>
      </condition>
    </where>
    <orderBy>
      <orderByItem type="asc"><reportAttributeReference id="Number"/></orderByItem>
    </orderBy>
  </query>
</qml>
