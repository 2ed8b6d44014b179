import { Base64Error } from '../files/base64.js';
import { HeaderError } from '../files/http-conditions.js';
import { QmlError, QmlProblems } from '../qml/qml-error.js';
import { QError } from '../query/q/q-model.js';
import type { EnvelopeProblem } from './error-envelope.js';

/**
 * The answer to an error of the request parsers, which stay free of HTTP: a QML template, a `q`
 * query, a conditional or digest header, base64 content. Each message says what the caller must
 * fix, so each is a 400 with that message (a template's problems listed one by one). Null for
 * any other error.
 */
export function inputProblem(e: unknown): { message: string; problems?: EnvelopeProblem[] } | null {
  if (e instanceof QmlProblems) {
    const more = e.problems.length - 1;
    return {
      message: `${e.message} (and ${more} more problem${more === 1 ? '' : 's'}, listed in "problems")`,
      problems: e.problems.map((p) => ({ path: p.path, message: p.reason })),
    };
  }
  if (e instanceof QmlError || e instanceof QError || e instanceof HeaderError || e instanceof Base64Error) {
    return { message: e.message };
  }
  return null;
}
