import { STATUS_CODES } from 'node:http';

/** The one error body of every service. */
export interface ErrorEnvelope {
  statusCode: number;
  error: string;
  message: string;
  requestId: string;
}

export function errorEnvelope(statusCode: number, message: string, requestId: string): ErrorEnvelope {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, requestId };
}
