<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <object alias="Doc" heading="Number" propertyName="number"/>
        <object alias="Doc" heading="Name"><property name="name"/></object>
        <object alias="Doc" heading="Type" propertyName="displayType"/>
        <object alias="Doc" heading="Version" propertyName="versionDisplayIdentifier"/>
        <object alias="Doc" heading="Iteration" propertyName="iterationDisplayIdentifier"/>
        <object alias="Doc" heading="State" propertyName="lifeCycleState"/>
        <object alias="Doc" heading="Context" propertyName="container.name"/>
        <object alias="Doc" heading="Folder" propertyName="folderPath"/>
        <object alias="Doc" heading="Created By" propertyName="creatorFullName"/>
        <object alias="Doc" heading="Creator E-mail" propertyName="creatorEMail"/>
        <object alias="Doc" heading="Modified By" propertyName="modifierFullName"/>
        <object alias="Doc" heading="Modifier E-mail" propertyName="modifierEMail"/>
      </select>
      <from>
        <table alias="Doc">wt.doc.WTDocument</table>
      </from>
      <where>
        <condition>
          <operand><column alias="Doc">master&gt;number</column></operand>
          <inOperator type="in"/>
          <inOperand><delimitedList><constant>0000000002, 0000000003</constant></delimitedList></inOperand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
