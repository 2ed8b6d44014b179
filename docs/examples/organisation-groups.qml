<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Organization (wt.org.WTOrganization)" heading="Organization">name</column>
        <column alias="Organization (wt.org.WTOrganization)" heading="CAGE Code">cageCode</column>
        <column alias="Group (wt.org.WTGroup)" heading="Group">name</column>
        <column alias="Member (wt.org.WTUser)" heading="Member">fullName</column>
      </select>
      <from>
        <table alias="Organization (wt.org.WTOrganization)">wt.org.WTOrganization</table>
        <table alias="Group (wt.org.WTGroup)">wt.org.WTGroup</table>
        <table alias="Member (wt.org.WTUser)">wt.org.WTUser</table>
      </from>
      <orderBy>
        <orderByItem><columnTarget heading="Group"/></orderByItem>
        <orderByItem><columnTarget heading="Member"/></orderByItem>
      </orderBy>
      <referenceJoin>
        <join name="organizationReference">
          <aliasTarget alias="Group (wt.org.WTGroup)"/>
          <aliasTarget alias="Organization (wt.org.WTOrganization)"/>
        </join>
      </referenceJoin>
      <linkJoin>
        <join name="wt.org.MembershipLink">
          <aliasTarget alias="Group (wt.org.WTGroup)"/>
          <aliasTarget alias="Member (wt.org.WTUser)"/>
        </join>
      </linkJoin>
    </query>
  </statement>
</qml>
