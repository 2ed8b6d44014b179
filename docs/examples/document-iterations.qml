<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Doc" heading="Id">thePersistInfo.theObjectIdentifier.id</column>
        <column alias="Doc" heading="Number">number</column>
        <column alias="Doc" heading="Name">name</column>
        <column alias="Doc" heading="Title">title</column>
        <column alias="Doc" heading="Description">description</column>
        <column alias="Doc" heading="Version">versionInfo.identifier.versionId</column>
        <column alias="Doc" heading="Iteration">iterationInfo.identifier.iterationId</column>
        <column alias="Doc" heading="Latest">iterationInfo.latest</column>
        <column alias="Doc" heading="State">state.state</column>
        <column alias="Doc" heading="Created">thePersistInfo.createStamp</column>
        <column alias="Doc" heading="Modified">thePersistInfo.modifyStamp</column>
        <column alias="Doc" heading="Master Id">masterReference.key.id</column>
        <column alias="Doc" heading="Container Id">containerReference.key.id</column>
        <column alias="Doc" heading="Creator Id">iterationInfo.creator.key.id</column>
        <column alias="Doc" heading="Modifier Id">iterationInfo.modifier.key.id</column>
      </select>
      <from>
        <table alias="Doc">wt.doc.WTDocument</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Doc">master&gt;number</column></operand>
          <operator type="equal"/>
          <operand><constant>0000000001</constant></operand>
        </condition>
      </where>
      <orderBy>
        <orderByItem type="asc"><columnTarget heading="Iteration"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
