import { STATUS_CODES } from 'node:http';

/** The one error body of every service. */
export interface ErrorEnvelope {
  statusCode: number;
  error: string;
  message: string;
  requestId: string;
  /** Every problem of the request, where it has several (a report template naming unknown things). */
  problems?: EnvelopeProblem[];
}

export interface EnvelopeProblem {
  path: string;
  message: string;
}

export function errorEnvelope(
  statusCode: number,
  message: string,
  requestId: string,
  problems?: EnvelopeProblem[],
): ErrorEnvelope {
  const envelope: ErrorEnvelope = { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, requestId };
  if (problems) envelope.problems = problems;
  return envelope;
}
