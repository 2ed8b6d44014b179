<?xml version="1.0" encoding="UTF-8"?>
<qml bypassAccessControl="true">
  <statement>
    <query>
      <select>
        <column alias="Doc" heading="Number">master&gt;number</column>
        <column alias="Doc" heading="Name">master&gt;name</column>
        <column alias="Project" heading="Project">name</column>
      </select>
      <from>
        <table alias="Doc">wt.doc.WTDocument</table>
        <table alias="Project">wt.projmgmt.admin.Project2</table>
      </from>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="containerReference">
          <aliasTarget alias="Doc"/>
          <aliasTarget alias="Project"/>
        </join>
      </referenceJoin>
    </query>
  </statement>
</qml>
