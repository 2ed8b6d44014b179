import { ROOT_IGNORED, type ElementSpec } from '../statement/statement-dialect.js';

const BOOL = ['true', 'false'] as const;

/**
 * The elements of the `qml/query` layout (Windchill 10 and later) that differ from the
 * `qml/statement/query` layout, with the attributes query-layout.ts reads. Every other
 * element (`from`, `table`, `column`, `object`, `function`, `constant`, `parameter`,
 * `compositeCondition`, `operand`, the operators, `inOperand`, `delimitedList`, `orderBy`,
 * `linkJoin`, `referenceJoin`) is as in QML_ELEMENTS. The reference lists both side by side;
 * query-dialect.spec.ts checks this list against query-layout.ts.
 */
export const QML_QUERY_ELEMENTS: readonly ElementSpec[] = [
  {
    name: 'qml',
    parents: [],
    attributes: [
      { name: 'bypassAccessControl', values: BOOL, default: 'false', about: 'as in the `statement` layout' },
      { name: 'caseInsensitive', values: BOOL, default: 'false', about: 'as in the `statement` layout' },
    ],
    ignored: ROOT_IGNORED,
    children: ['parameter', 'query'],
    about: 'the root element: parameters, then one `query` (no `statement`)',
  },
  {
    name: 'query',
    parents: ['qml'],
    attributes: [],
    children: ['selectOrConstrain', 'from', 'where', 'orderBy', 'linkJoin', 'referenceJoin', 'descriptionForExport'],
    about: 'one `selectOrConstrain` and one `from`; the others at most once each',
  },
  {
    name: 'selectOrConstrain',
    parents: ['query'],
    attributes: [
      { name: 'distinct', values: BOOL, default: 'false', about: 'drop duplicate rows' },
      {
        name: 'group',
        values: BOOL,
        default: 'false',
        about: 'group by every result column that is not an aggregate function',
      },
    ],
    children: ['reportAttribute', 'layoutSectionHeader'],
    about: 'the report attributes, in result order; at least one is a result column',
  },
  {
    name: 'layoutSectionHeader',
    parents: ['selectOrConstrain'],
    attributes: [],
    ignored: ['layoutSectionId', 'text'],
    children: [],
    about: 'a heading of the search form: ignored',
  },
  {
    name: 'reportAttribute',
    parents: ['selectOrConstrain'],
    attributes: [
      { name: 'heading', about: 'the column heading; also a request parameter that constrains it; default: the id' },
      {
        name: 'reportAttributeId',
        about:
          'its id (unique): `reportAttributeReference` names it, and so does the request parameter that constrains it; default: the heading',
      },
      {
        name: 'userCanSelect',
        values: BOOL,
        default: 'true',
        about: '`false`: not a result column (unless `alwaysSelect`)',
      },
      {
        name: 'userCanConstrain',
        values: BOOL,
        default: 'false',
        about: '`true`: request parameters and the `defaultValue` constrain it',
      },
      { name: 'alwaysSelect', values: BOOL, default: 'false', about: '`true`: a result column in any case' },
      { name: 'defaultValue', about: 'its value when the request gives none (with `userCanConstrain="true"`)' },
      { name: 'constantValue', about: 'a fixed value: always constrains, the request cannot change it' },
      { name: 'isMacro', values: BOOL, default: 'false', about: '`defaultValue` and `constantValue` are macro names' },
    ],
    children: ['column', 'object', 'function', 'constant', 'parameterValue'],
    about: 'wraps exactly one item: a value (result column, criterion) or, with `parameterValue`, an input',
  },
  {
    name: 'parameterValue',
    parents: ['reportAttribute', 'operand', 'function', 'delimitedList'],
    attributes: [{ name: 'type', about: 'a type hint for the value (see Value types)' }],
    ignored: ['enumIdentifier'],
    children: [],
    text: 'in an operand: the value',
    about: 'in a `reportAttribute`: an input, a parameter named by the attribute’s id; elsewhere a literal',
  },
  {
    name: 'reportAttributeReference',
    parents: ['operand', 'function', 'delimitedList', 'orderByItem'],
    attributes: [{ name: 'id', required: true, about: 'the `reportAttributeId` of a report attribute' }],
    children: [],
    about: 'the item of that report attribute, or the value of that input',
  },
  {
    name: 'condition',
    parents: ['where', 'compositeCondition'],
    attributes: [
      {
        name: 'outerJoinAlias',
        about: 'LEFT-join the table of that alias to the one other table the condition names',
      },
    ],
    children: ['standardCondition', 'nullCondition', 'inCondition'],
    about: 'wraps exactly one `standardCondition`, `nullCondition` or `inCondition`',
  },
  {
    name: 'standardCondition',
    parents: ['condition'],
    attributes: [],
    children: ['operand', 'operator'],
    about: '`operand`, `operator`, `operand`: a comparison',
  },
  {
    name: 'nullCondition',
    parents: ['condition'],
    attributes: [],
    children: ['operand', 'nullOperator'],
    about: '`operand`, `nullOperator`: a null test',
  },
  {
    name: 'inCondition',
    parents: ['condition'],
    attributes: [],
    children: ['operand', 'inOperator', 'inOperand'],
    about: '`operand`, `inOperator`, `inOperand`: a list test',
  },
  {
    name: 'orderByItem',
    parents: ['orderBy'],
    attributes: [{ name: 'type', values: ['asc', 'desc'], default: 'asc', about: 'the direction' }],
    children: ['reportAttributeReference'],
    about: 'one sort key: a report attribute that is a result column',
  },
  {
    name: 'join',
    parents: ['linkJoin', 'referenceJoin'],
    attributes: [
      { name: 'name', required: true, about: 'as in the `statement` layout' },
      {
        name: 'outerJoinAlias',
        about: 'one of the two aliases: its table is LEFT-joined to the other (null columns where it has no partner)',
      },
    ],
    children: ['fromAliasTarget', 'toAliasTarget'],
    about:
      'relates a `fromAliasTarget` (the class holding the reference; for a link either end, role A where both fit both roles) to a `toAliasTarget`',
  },
  {
    name: 'fromAliasTarget',
    parents: ['join'],
    attributes: [{ name: 'alias', required: true, about: 'a table alias declared in `from`' }],
    children: [],
    about: 'the source of a join',
  },
  {
    name: 'toAliasTarget',
    parents: ['join'],
    attributes: [{ name: 'alias', required: true, about: 'a table alias declared in `from`' }],
    children: [],
    about: 'the target of a join',
  },
  {
    name: 'descriptionForExport',
    parents: ['query'],
    attributes: [],
    children: [],
    text: 'ignored',
    about: 'a description for the exporting system: ignored',
  },
  {
    name: 'script',
    parents: ['reportAttribute', 'function', 'operand'],
    attributes: [],
    ignored: ['className', 'name', 'type'],
    children: [],
    about: 'a Java callback: refused (400), wherever it appears; scripts never run here',
  },
];
