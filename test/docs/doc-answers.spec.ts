import { jsonDifference, readShownJson, textMatches } from './doc-answers.js';
import { answerDifference, docExamples, type Example } from './doc-examples.js';

/** The conventions of the answers the pages show: what `…` lets differ, and nothing more. */
describe('shown answers', () => {
  it('reads JSON with comments and bare … placeholders', () => {
    expect(readShownJson('{ "a": 1, // one\n "b": […, 2], … }')).toEqual({ a: 1, b: ['…', 2], '…': '…' });
    expect(() => readShownJson('{ "a": 1 } x')).toThrow('text after the value');
    expect(() => readShownJson('{ "a" 1 }')).toThrow('":" expected');
  });

  it('lets … stand for any value, any run of text, any run of elements and further members', () => {
    expect(jsonDifference({ id: '…', at: '2026-…Z' }, { id: 7, at: '2026-11-27T03:00:00.000Z' })).toBeNull();
    expect(jsonDifference(['a', '…'], ['a'])).toBeNull();
    expect(jsonDifference(['a', '…', 'z'], ['a', 'b', 'c', 'z'])).toBeNull();
    expect(jsonDifference({ a: 1, '…': '…' }, { a: 1, b: 2 })).toBeNull();
  });

  it('names where everything else differs', () => {
    expect(jsonDifference({ items: ['CN-0001'] }, { items: ['CN-0002'] })).toBe(
      '$.items[0]: shown "CN-0001", got "CN-0002"',
    );
    expect(jsonDifference({ count: 2 }, { count: 2, _runtime: 0.1 })).toBe('$: not shown: "_runtime": 0.1');
    expect(jsonDifference({ a: 1, b: 2 }, { a: 1 })).toBe('$: shown "b", which the answer lacks (it has ["a"])');
    expect(jsonDifference([1, 2], [1, 2, 3])).toBe('$: shown 2 elements, got 3; not shown [3]');
    expect(jsonDifference(['a', '…'], ['b'])).toBe('$[0]: shown "a", got "b"');
    expect(jsonDifference({ n: 1 }, { n: '1' })).toBe('$.n: shown 1, got "1"');
    expect(jsonDifference({ at: '2026-…Z' }, { at: null })).toBe('$.at: shown "2026-…Z", got null');
    expect(textMatches('Drive…', 'Drive unit')).toBe(true);
    expect(textMatches('Drive', 'Drive unit')).toBe(false);
  });
});

describe('examples of a page', () => {
  const page = [
    'Intro.',
    '',
    '```sh',
    'B=http://localhost:3000',
    '# a comment',
    'curl -u a:b "$B/x" \\',
    "  -d '{",
    '  "a": 1 }\'',
    '# → 201 {"a": 1, …}',
    'curl -u a:b "$B/y"',
    '# → 200',
    '```',
    '',
    '```json',
    '{ "count": 0 }',
    '```',
    '',
    '<!-- not run: needs a second machine -->',
    '```sh',
    'curl http://elsewhere/',
    '```',
  ].join('\n');

  it('finds commands, their answers (inline or in the next block) and blocks not run, with their lines', () => {
    const doc = docExamples('p.md', page);
    expect(doc.steps).toEqual([
      { kind: 'shell', line: 4, command: 'B=http://localhost:3000' },
      {
        kind: 'curl',
        line: 6,
        command: 'curl -u a:b "$B/x" \\\n  -d \'{\n  "a": 1 }\'',
        status: 201,
        answer: { kind: 'json', value: { a: 1, '…': '…' } },
        answerLine: 9,
      },
      {
        kind: 'curl',
        line: 10,
        command: 'curl -u a:b "$B/y"',
        status: 200,
        answer: { kind: 'json', value: { count: 0 } },
        answerLine: 15,
      },
    ]);
    expect(doc.skipped).toEqual([{ line: 20, reason: 'needs a second machine', examples: 1 }]);
  });

  it('refuses a curl example without an answer, naming its line', () => {
    expect(() => docExamples('p.md', '```sh\ncurl http://localhost:3000/x\n```\n')).toThrow(
      'p.md:2: a curl example without a "# → <status> <answer>" line',
    );
    expect(() => docExamples('p.md', '```sh\ncurl http://localhost:3000/x\n# → items: []\n```\n')).toThrow(
      'p.md:3: an answer line starts with the status',
    );
  });

  it('compares the status, then the body', () => {
    const example = docExamples('p.md', page).steps[1] as Example;
    expect(answerDifference(example, 201, '{"a":1,"b":2}')).toBeNull();
    expect(answerDifference(example, 409, '{"message":"taken"}')).toBe(
      'status: shown 201, got 409 with {"message":"taken"}',
    );
    expect(answerDifference(example, 201, 'not JSON')).toBe('shown JSON, got not JSON');
  });
});
