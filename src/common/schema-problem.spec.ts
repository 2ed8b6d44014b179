import { fill, MESSAGE, pathText, schemaAjv, schemaProblem, type SchemaProblem } from './schema-problem.js';

const ajv = schemaAjv();
const validate = ajv.compile({
  type: 'object',
  properties: {
    n: {
      anyOf: [
        { type: 'integer', maximum: 9, [MESSAGE]: { type: 'not an integer', maximum: 'too big' } },
        { type: 'null' },
        { type: 'array', items: { type: 'integer', [MESSAGE]: 'an element is not an integer' } },
        {
          type: 'object',
          propertyNames: { enum: ['eq'], [MESSAGE]: 'unknown operator' },
          properties: { eq: { type: 'integer', [MESSAGE]: 'eq is not an integer' } },
        },
      ],
    },
    s: {
      anyOf: [{ type: 'string', enum: ['a'] }, { type: 'array' }],
      [MESSAGE]: { anyOf: 'neither a key nor a list' },
    },
    file: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string' } },
    },
  },
});

function problem(data: unknown): Omit<SchemaProblem, 'params' | 'value'> {
  expect(validate(data)).toBe(false);
  const { params: _p, value: _v, ...rest } = schemaProblem(data, validate.errors!);
  return rest;
}

describe('schemaProblem', () => {
  it('takes the first branch of an anyOf whose branches all refuse the kind of value', () => {
    expect(problem({ n: 'x' })).toEqual({ path: ['n'], key: undefined, keyword: 'type', message: 'not an integer' });
  });

  it('takes the problem of the branch that fits the kind of value, the deepest one', () => {
    expect(problem({ n: 10 })).toMatchObject({ path: ['n'], keyword: 'maximum', message: 'too big' });
    expect(problem({ n: [1, 'x'] })).toMatchObject({ path: ['n', 1], message: 'an element is not an integer' });
    expect(problem({ n: { eq: 'x' } })).toMatchObject({ path: ['n', 'eq'], message: 'eq is not an integer' });
  });

  it('names a key refused by propertyNames below its object', () => {
    expect(problem({ n: { rx: 1 } })).toEqual({ path: ['n'], key: 'rx', keyword: 'enum', message: 'unknown operator' });
  });

  it("ignores what a branch of another type says beside its type, and uses an anyOf's own wording", () => {
    expect(problem({ s: 5 })).toMatchObject({ path: ['s'], keyword: 'anyOf', message: 'neither a key nor a list' });
    expect(problem({ s: 'b' })).toMatchObject({ path: ['s'], keyword: 'enum', message: undefined });
  });

  it('gives missing and unknown keys as the key', () => {
    expect(problem({ file: {} })).toMatchObject({ path: ['file'], key: 'name', keyword: 'required' });
    expect(problem({ file: { name: 'a', size: 1 } })).toMatchObject({ key: 'size', keyword: 'additionalProperties' });
  });
});

describe('pathText and fill', () => {
  it('write paths as messages do', () => {
    expect(pathText('q[0]', ['attributes.x', 'in', 2])).toBe('q[0].attributes.x.in[2]');
    expect(pathText('', ['objects', 12, 'files', 0, 'filename'])).toBe('objects[12].files[0].filename');
    expect(pathText('', [])).toBe('');
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(fill('{value} is not {what}, {other}', { value: '"x"', what: 'a number' })).toBe(
      '"x" is not a number, {other}',
    );
  });
});
