<qml>
  <statement>
    <query>
      <select>
        <column alias="D" heading="Number">number</column>
        <column alias="D" heading="Language">acmeLanguage</column>
        <object alias="D" heading="Author" propertyName="acmeAuthor"/>
      </select>
      <from><table alias="D">wt.doc.WTDocument</table></from>
      <where>
        <condition>
          <operand><column alias="D">acmeLanguage</column></operand>
          <operator type="equal"/>
          <operand><constant>en</constant></operand>
        </condition>
      </where>
    </query>
  </statement>
</qml>
