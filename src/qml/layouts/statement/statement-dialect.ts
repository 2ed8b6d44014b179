import { COMPARISON_OPERATORS } from '../../functions/functions.js';
import { MACROS } from '../../parse/values.js';

/**
 * What the parser and validator accept in the `qml/statement/query` layout, as data: every
 * element with the attributes the compiler reads, every operator, function description and
 * macro (the `qml/query` layout lists what differs in layouts/query/query-dialect.ts). The user
 * reference (docs/qml-reference.md) is generated from these lists and the registry, and
 * statement-dialect.spec.ts holds this one to what the validator does with the example
 * templates, so neither can drift.
 */
export interface AttributeSpec {
  name: string;
  /** The attribute must be present and not blank. */
  required?: boolean;
  /** The values accepted; any other is a 400. Absent: free text. */
  values?: readonly string[];
  /** The value when the attribute is absent or blank. */
  default?: string;
  about: string;
}

export interface ElementSpec {
  name: string;
  /** The elements it may occur in. */
  parents: readonly string[];
  attributes: readonly AttributeSpec[];
  /** The child elements accepted (any other is a 400). */
  children: readonly string[];
  /** What the element's text is, when it is used. */
  text?: string;
  /** Attributes real exports carry that change nothing here: read by nothing, listed in the reference. */
  ignored?: readonly string[];
  about: string;
}

const BOOL = ['true', 'false'] as const;

/** Root attributes of real exports (both layouts) that change nothing here. */
export const ROOT_IGNORED = [
  'addTimeToDateFields',
  'mainType',
  'joinModel',
  'forAdvancedSearch',
  'legacyMode',
  'xmlns:xsi',
  'xsi:noNamespaceSchemaLocation',
] as const;

const HEADING: AttributeSpec = {
  name: 'heading',
  about: 'the column heading of a selected item (used by `columnTarget`); default: its text, property name or alias',
};
const ALIAS: AttributeSpec = { name: 'alias', required: true, about: 'a table alias declared in `from`' };
const TYPE_HINT: AttributeSpec = {
  name: 'type',
  about: 'a type hint (see Value types): types constants, parameters and custom attributes, never a property',
};

/** Items that can be selected, and operands of conditions and functions. */
const VALUE_ITEMS = ['column', 'object', 'function', 'constant'] as const;
const OPERAND_ITEMS = [...VALUE_ITEMS, 'parameterTarget'] as const;

export const QML_ELEMENTS: readonly ElementSpec[] = [
  {
    name: 'qml',
    parents: [],
    attributes: [
      {
        name: 'bypassAccessControl',
        values: BOOL,
        default: 'false',
        about: 'read every container: honoured for administrators only, ignored for anyone else',
      },
      {
        name: 'caseInsensitive',
        values: BOOL,
        default: 'false',
        about:
          'compare text ignoring case: `equal`, `notEqual`, the order operators, `like`, `notLike` and in-lists between texts',
      },
    ],
    ignored: ROOT_IGNORED,
    children: ['parameter', 'statement'],
    about: 'the root element: parameters, then one statement',
  },
  {
    name: 'parameter',
    parents: ['qml'],
    attributes: [
      { name: 'name', required: true, about: 'the request parameter that gives its value' },
      { ...TYPE_HINT, about: 'a type hint for the value where no property gives one (see Value types)' },
    ],
    children: ['parameterDefault'],
    about: 'a value given by the request (URL parameter or form field of the same name)',
  },
  {
    name: 'parameterDefault',
    parents: ['parameter'],
    attributes: [{ name: 'isMacro', values: BOOL, default: 'false', about: 'the text is a macro name' }],
    children: [],
    text: 'the value when the request gives none (or a macro name)',
    about: 'the default of a parameter; without it the parameter is required',
  },
  { name: 'statement', parents: ['qml'], attributes: [], children: ['query'], about: 'holds the one query' },
  {
    name: 'query',
    parents: ['statement'],
    attributes: [],
    children: ['select', 'from', 'where', 'orderBy', 'linkJoin', 'referenceJoin'],
    about: 'one `select` and one `from`; `where`, `orderBy`, `linkJoin`, `referenceJoin` at most once each',
  },
  {
    name: 'select',
    parents: ['query'],
    attributes: [
      { name: 'distinct', values: BOOL, default: 'false', about: 'drop duplicate rows' },
      {
        name: 'group',
        values: BOOL,
        default: 'false',
        about: 'group by every selected item that is not an aggregate function',
      },
    ],
    children: VALUE_ITEMS,
    about: 'the selected items, at least one, in result order',
  },
  {
    name: 'from',
    parents: ['query'],
    attributes: [],
    children: ['table'],
    about: 'the tables, at least one; tables related by no join or condition form a cross product',
  },
  {
    name: 'table',
    parents: ['from'],
    attributes: [
      { name: 'alias', required: true, about: 'the name other elements use for this table (free text, unique)' },
      {
        name: 'outerJoinAlias',
        about: 'LEFT-join this table to the table of that alias: where it has no partner row, its columns are null',
      },
    ],
    children: [],
    ignored: ['isExternal', 'xposition', 'yposition'],
    text: 'a class or interface name (see Classes)',
    about: 'one table of the query: the rows of a class the caller may read',
  },
  {
    name: 'column',
    parents: ['select', 'function', 'operand'],
    attributes: [
      ALIAS,
      HEADING,
      { name: 'propertyName', about: 'the property path, used only when the element has no text' },
      { ...TYPE_HINT, about: 'types a custom attribute (number or boolean); ignored for other properties' },
    ],
    children: [],
    ignored: ['isExternal', 'selectOnly'],
    text: 'a property path of the alias’s class, possibly through its references (see Properties)',
    about: 'a property of a table',
  },
  {
    name: 'object',
    parents: ['select', 'function', 'operand'],
    attributes: [
      ALIAS,
      HEADING,
      {
        name: 'propertyName',
        about: '`""`: the object itself (its OID); else a derived property, dotted (`container.name`)',
      },
    ],
    children: ['property'],
    about: 'the object itself, or a derived property (by `propertyName` or a chain of `property` elements)',
  },
  {
    name: 'property',
    parents: ['object', 'property'],
    attributes: [{ name: 'name', required: true, about: 'one step of a derived property path' }],
    children: ['property'],
    about: 'a derived property as a chain, one `property` per level; wins over `propertyName`',
  },
  {
    name: 'function',
    parents: ['select', 'function', 'operand'],
    attributes: [{ name: 'name', required: true, about: 'a function name, any case (see Functions)' }, HEADING],
    children: OPERAND_ITEMS,
    ignored: ['type'],
    about: 'a function call; its children are the arguments, in order (its result type follows from them)',
  },
  {
    name: 'constant',
    parents: ['select', 'function', 'operand', 'delimitedList'],
    attributes: [
      { name: 'isMacro', values: BOOL, default: 'false', about: 'the text is a macro name' },
      TYPE_HINT,
      HEADING,
    ],
    children: [],
    ignored: ['xml:space'],
    text: 'the value (or a macro name), converted to the type of what it meets',
    about: 'a value written in the document',
  },
  {
    name: 'parameterTarget',
    parents: ['function', 'operand', 'delimitedList'],
    attributes: [{ name: 'name', required: true, about: 'a parameter declared in `qml`' }],
    children: [],
    about: 'the value of a parameter',
  },
  {
    name: 'where',
    parents: ['query'],
    attributes: [],
    children: ['compositeCondition', 'condition'],
    about: 'exactly one condition or compositeCondition',
  },
  {
    name: 'compositeCondition',
    parents: ['where', 'compositeCondition'],
    attributes: [{ name: 'type', values: ['and', 'or'], default: 'and', about: 'how its conditions combine' }],
    children: ['compositeCondition', 'condition'],
    about: 'conditions combined with and/or, at least one, nested freely',
  },
  {
    name: 'condition',
    parents: ['where', 'compositeCondition'],
    attributes: [],
    children: ['operand', 'operator', 'nullOperator', 'inOperator', 'inOperand'],
    about:
      'one of: `operand`, `operator`, `operand` (comparison); `operand`, `nullOperator`; `operand`, `inOperator`, `inOperand`',
  },
  {
    name: 'operand',
    parents: ['condition'],
    attributes: [],
    children: OPERAND_ITEMS,
    about: 'exactly one item; aggregate functions are not allowed in conditions',
  },
  {
    name: 'operator',
    parents: ['condition'],
    attributes: [{ name: 'type', required: true, values: COMPARISON_OPERATORS, about: 'the comparison' }],
    children: [],
    about: 'compares the two operands (see Operators)',
  },
  {
    name: 'nullOperator',
    parents: ['condition'],
    attributes: [{ name: 'type', required: true, values: ['isNull', 'isNotNull'], about: 'the test' }],
    children: [],
    about: 'tests the operand for null',
  },
  {
    name: 'inOperator',
    parents: ['condition'],
    attributes: [{ name: 'type', required: true, values: ['in', 'notIn'], about: 'the test' }],
    children: [],
    about: 'tests the operand against the values of the `inOperand`',
  },
  {
    name: 'inOperand',
    parents: ['condition'],
    attributes: [],
    children: ['delimitedList'],
    about: 'holds one `delimitedList`',
  },
  {
    name: 'delimitedList',
    parents: ['inOperand'],
    attributes: [{ name: 'delimiter', default: ',', about: 'splits each constant and parameter value (not empty)' }],
    children: ['constant', 'parameterTarget'],
    about:
      'constants and parameters, at least one; each is split at the delimiter and the parts, trimmed, are the values (empty parts dropped)',
  },
  {
    name: 'orderBy',
    parents: ['query'],
    attributes: [],
    children: ['orderByItem'],
    about: 'sort keys, in order; ties are always broken, so the order of a result is total',
  },
  {
    name: 'orderByItem',
    parents: ['orderBy'],
    attributes: [{ name: 'type', values: ['asc', 'desc'], default: 'asc', about: 'the direction' }],
    children: ['columnTarget'],
    about: 'one sort key',
  },
  {
    name: 'columnTarget',
    parents: ['orderByItem'],
    attributes: [{ name: 'heading', required: true, about: 'the heading of a selected item' }],
    children: [],
    about: 'the selected item to sort by',
  },
  {
    name: 'linkJoin',
    parents: ['query'],
    attributes: [],
    children: ['join'],
    about: 'joins through link classes (see Link classes)',
  },
  {
    name: 'referenceJoin',
    parents: ['query'],
    attributes: [],
    children: ['join'],
    about: 'joins through references (see References)',
  },
  {
    name: 'join',
    parents: ['linkJoin', 'referenceJoin'],
    attributes: [
      {
        name: 'name',
        required: true,
        about:
          'in `linkJoin` a link class (its ends matched to its roles by class); in `referenceJoin` a reference of the first alias’s class',
      },
    ],
    children: ['aliasTarget'],
    about: 'relates exactly two aliases, named by two `aliasTarget` elements',
  },
  {
    name: 'aliasTarget',
    parents: ['join'],
    attributes: [ALIAS],
    children: [],
    about:
      'one side of a join: first the class holding the reference, then its target; for a link, either order (role A first where both fit both roles)',
  },
];

/** What each comparison operator means. */
export const OPERATOR_NOTES: Readonly<Record<(typeof COMPARISON_OPERATORS)[number], string>> = {
  equal: '=',
  notEqual: '≠',
  lessThan: '<',
  lessThanOrEqual: '≤',
  greaterThan: '>',
  greaterThanOrEqual: '≥',
  like: 'matches a pattern: `*` or `%` any characters, `?` or `_` one character',
  notLike: 'does not match the pattern',
};

/** What each macro stands for. */
export const MACRO_NOTES: Readonly<Record<(typeof MACROS)[number], string>> = {
  CURRENT_USER_NAME: 'the name of the caller (`alice`)',
  CURRENT_USER: 'the OID of the caller (`OR:wt.org.WTUser:2`); compared with an id it is that id',
  CURRENT_TIME: 'the time of the request (ISO-8601, UTC)',
  CURRENT_DATE: 'today, 00:00 UTC',
};

export { COMPARISON_OPERATORS, MACROS };
export { FUNCTION_NOTES } from '../../functions/function-notes.js';
