import { QmlError } from './qml-error.js';

/** The message of the QmlError `run` throws (the 400 a caller gets); fails the test when it throws none. */
export function rejection(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (e instanceof QmlError) return e.message;
    throw e;
  }
  throw new Error('accepted');
}
