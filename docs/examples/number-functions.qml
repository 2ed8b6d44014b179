<?xml version="1.0" encoding="UTF-8"?>
<qml>
  <statement>
    <query>
      <select>
        <column alias="Part" heading="Number">master&gt;number</column>
        <column alias="Part" heading="kB" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
        <function name="MULTIPLY" heading="Bytes">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
          <constant>1024</constant>
        </function>
        <function name="DIVIDE" heading="Per Core">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
          <constant>3</constant>
        </function>
        <function name="DIVIDE" heading="Per Nothing">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
          <constant>0</constant>
        </function>
        <function name="ROUND" heading="Rounded">
          <function name="DIVIDE">
            <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
            <constant>3</constant>
          </function>
          <constant>2</constant>
        </function>
        <function name="TRUNC" heading="Truncated">
          <function name="DIVIDE">
            <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
            <constant>3</constant>
          </function>
          <constant>1</constant>
        </function>
        <function name="MOD" heading="Mod 100">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
          <constant>100</constant>
        </function>
        <function name="ABS" heading="Off 256">
          <function name="SUBTRACT">
            <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
            <constant>256</constant>
          </function>
        </function>
        <function name="SIGN" heading="Over 256">
          <function name="SUBTRACT">
            <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
            <constant>256</constant>
          </function>
        </function>
        <function name="CEIL" heading="Ceil">
          <function name="DIVIDE">
            <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
            <constant>100</constant>
          </function>
        </function>
        <function name="FLOOR" heading="Floor">
          <function name="DIVIDE">
            <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
            <constant>100</constant>
          </function>
        </function>
        <function name="POWER" heading="Squared">
          <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
          <constant>2</constant>
        </function>
        <function name="SQRT" heading="Root"><column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column></function>
        <function name="GREATEST" heading="At Least 100"><column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column><constant>100</constant></function>
        <function name="LEAST" heading="At Most 100"><column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column><constant>100</constant></function>
      </select>
      <from>
        <table alias="Part">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart</table>
      </from>
      <where>
        <condition>
          <operand>
            <function name="MOD">
              <column alias="Part" type="java.lang.Long">WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb</column>
              <constant>64</constant>
            </function>
          </operand>
          <operator type="equal"/>
          <operand><constant>0</constant></operand>
        </condition>
      </where>
      <orderBy>
        <orderByItem><columnTarget heading="Number"/></orderByItem>
      </orderBy>
    </query>
  </statement>
</qml>
