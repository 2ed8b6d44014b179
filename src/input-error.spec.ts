import { Base64Error } from './files/upload/base64.js';
import { HeaderError } from './files/download/http-conditions.js';
import { QmlError, QmlLimitError, QmlProblems } from './qml/qml-error.js';
import { QError } from './query/q/q-model.js';
import { InputError, inputProblem } from './common/input-error.js';

describe('InputError', () => {
  it('is what every module’s errors of a caller’s input extend: each answers 400 with its message', () => {
    for (const e of [
      new QmlError('/qml/statement', 'no query'),
      new QmlLimitError('/qml', 'too many tables', 'maxTables'),
      new QError('unknown field "x"'),
      new HeaderError('If-Match: not an entity tag'),
      new Base64Error('not base64'),
    ]) {
      expect(e).toBeInstanceOf(InputError);
      expect(inputProblem(e)).toEqual({ message: e.message });
    }
  });

  it('lists a template’s problems one by one, the first in the message', () => {
    const e = new QmlProblems([
      { path: '/qml/a', reason: 'first' },
      { path: '/qml/b', reason: 'second' },
    ]);
    expect(inputProblem(e)).toEqual({
      message: '/qml/a: first (and 1 more problem, listed in "problems")',
      problems: [
        { path: '/qml/a', message: 'first' },
        { path: '/qml/b', message: 'second' },
      ],
    });
  });

  it('leaves any other error to the filter (500)', () => {
    expect(inputProblem(new Error('boom'))).toBeNull();
    expect(inputProblem('text')).toBeNull();
  });
});
