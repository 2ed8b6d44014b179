<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Part (WCTYPE|wt.part.WTPart|com.acme.SoftwarePart)" heading="Number">master&gt;number</column>
        <object alias="Part (WCTYPE|wt.part.WTPart|com.acme.SoftwarePart)" heading="Type" propertyName="displayType"/>
        <column alias="Part (WCTYPE|wt.part.WTPart|com.acme.SoftwarePart)" heading="Firmware">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|firmwareVersion</column>
        <column alias="Part (WCTYPE|wt.part.WTPart|com.acme.SoftwarePart)" heading="Memory (kB)">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
        <column alias="View (wt.vc.views.View)" heading="View">name</column>
      </select>
      <from>
        <table alias="Part (WCTYPE|wt.part.WTPart|com.acme.SoftwarePart)">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart</table>
        <table alias="View (wt.vc.views.View)">wt.vc.views.View</table>
      </from>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="view">
          <aliasTarget alias="Part (WCTYPE|wt.part.WTPart|com.acme.SoftwarePart)"/>
          <aliasTarget alias="View (wt.vc.views.View)"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
