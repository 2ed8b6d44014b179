<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select group="true">
        <column alias="Part" heading="State">state.state</column>
        <function name="COUNT" heading="Parts"/>
        <function name="COUNT" heading="With Memory">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
        </function>
        <function name="MINIMUM" heading="Least">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
        </function>
        <function name="MAXIMUM" heading="Most">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
        </function>
        <function name="AVERAGE" heading="Mean">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
        </function>
        <function name="STDDEV" heading="Deviation">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
        </function>
        <function name="VARIANCE" heading="Variance">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
        </function>
      </select>
      <from>
        <table alias="Part">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart</table>
      </from>
    </query>
  </statement>
</qml>
