import { FIELDS, MAX_ARRAY, MAX_CRITERIA, SORT_KEYS, typeClasses, type FieldKind } from './q-model.js';

/** JSON Schema (2020-12, as OpenAPI 3.1 uses it) of one `q` object. */
export function qJsonSchema(): Record<string, unknown> {
  const scalarOf: Record<FieldKind, object> = {
    text: { type: 'string' },
    int: { type: 'integer' },
    timestamp: { type: 'string', format: 'date-time' },
    type: { enum: [...typeClasses().keys()] },
    attribute: { type: ['string', 'number', 'boolean'] },
  };
  const valueOf = (kind: FieldKind): object => {
    const scalar = scalarOf[kind];
    const ordered = kind !== 'type';
    const stringy = kind === 'text' || kind === 'attribute';
    const operators: Record<string, object> = {
      eq: { anyOf: [scalar, { type: 'null' }] },
      ne: { anyOf: [scalar, { type: 'null' }] },
      in: { type: 'array', items: scalar, maxItems: MAX_ARRAY },
    };
    if (ordered) {
      for (const op of ['lt', 'lte', 'gt', 'gte']) operators[op] = scalar;
      operators.between = { type: 'array', items: scalar, minItems: 2, maxItems: 2 };
      operators.exists = { type: 'boolean' };
    }
    if (stringy) {
      operators.like = { type: 'string' };
      operators.ilike = { type: 'string' };
    }
    return {
      anyOf: [
        scalar,
        { type: 'null' },
        { type: 'array', items: { anyOf: [scalar, { type: 'null' }] }, maxItems: MAX_ARRAY },
        { type: 'object', properties: operators, additionalProperties: false, minProperties: 1 },
      ],
    };
  };
  const properties: Record<string, object> = {};
  for (const [key, kind] of FIELDS) properties[key] = valueOf(kind);
  properties.latest = { type: 'boolean', default: true, description: 'only latest iterations' };
  const sortKey = { type: 'string', pattern: `^-?(${SORT_KEYS.join('|')})$` };
  properties.sort = {
    description: 'sort keys, "-" for descending; default number, then the object id',
    anyOf: [sortKey, { type: 'array', items: sortKey, minItems: 1, uniqueItems: true }],
  };
  return {
    $id: 'q',
    title: 'q object',
    description:
      'Every key is a criterion; all must hold. A string matches exactly unless it contains * (any run) or ? ' +
      '(one character); \\* and \\? are the characters themselves.',
    type: 'object',
    properties,
    patternProperties: { '^attributes\\..+$': valueOf('attribute') },
    additionalProperties: false,
    maxProperties: MAX_CRITERIA + 1,
  };
}
