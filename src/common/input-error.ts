import type { EnvelopeProblem } from './error-envelope.js';

/**
 * What the caller sent is wrong, as found by code that knows nothing of HTTP (a parser, a
 * compiler: a QML template, a `q` query, a conditional header, base64 content). Each module's
 * errors of that kind extend it; the exception filter answers every one with 400 and its
 * message, which says what the caller must fix (`answer()`: a template's problems one by one).
 */
export class InputError extends Error {
  /** The message of the 400, and each problem where there are several. */
  answer(): { message: string; problems?: EnvelopeProblem[] } {
    return { message: this.message };
  }
}

/** The answer to an InputError; null for any other error. */
export function inputProblem(e: unknown): { message: string; problems?: EnvelopeProblem[] } | null {
  return e instanceof InputError ? e.answer() : null;
}
