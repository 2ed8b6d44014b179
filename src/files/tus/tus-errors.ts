import { HttpException } from '@nestjs/common';
import { STATUS_CODES, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { errorEnvelope } from '../../common/error-envelope.js';
import { StoreUnavailableError } from '../stores/blob-store.js';

/** An error answer of the tus server: its protocol errors ({status_code, body}) or what a store threw. */
export type TusError = Error | { status_code: number; body: string };

/**
 * What the tus server answers for an error that reached a handler: a protocol error keeps its
 * status and text, an HTTP exception its status and message, an unreachable store is a 503;
 * anything else a 500 without its details (the caller logs them). The text becomes the message
 * of the envelope (envelopeTextErrors).
 */
export function tusErrorAnswer(err: TusError): { status_code: number; body: string } {
  if ('status_code' in err && typeof err.status_code === 'number') {
    return { status_code: err.status_code, body: err.body.trim() || (STATUS_CODES[err.status_code] ?? 'error') };
  }
  if (err instanceof HttpException) return { status_code: err.getStatus(), body: err.message };
  if (err instanceof StoreUnavailableError) return { status_code: 503, body: err.message };
  return { status_code: 500, body: 'internal error' };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Turns the tus server's text error answers (a missing Tus-Resumable, an Upload-Offset other
 * than the server's, a part past Upload-Length, 423 while another request holds the upload...)
 * into the error envelope of every service, typed JSON: the server builds its answers as web
 * Responses with text bodies and hands their headers to writeHead as a flat list, a list of
 * pairs or an object. Answers that are JSON already (a completion's) pass unchanged.
 */
export function envelopeTextErrors(res: ServerResponse, requestId: () => string): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const text: Buffer[] = [];
  let converting = false;
  (res as { writeHead: unknown }).writeHead = (status: number, ...rest: unknown[]) => {
    const at = rest.findIndex((arg) => typeof arg !== 'string' && arg !== undefined);
    const headers = at < 0 ? {} : toObject(rest[at]);
    const type = String(headers['content-type'] ?? res.getHeader('content-type') ?? '');
    if (status < 400 || type.startsWith('application/json')) return writeHead(status, ...rest);
    converting = true;
    delete headers['content-type'];
    delete headers['content-length'];
    res.removeHeader('content-length');
    return writeHead(status, { ...headers, 'content-type': JSON_TYPE });
  };
  (res as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
    if (!converting) return write(chunk, ...rest);
    text.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array | string));
    const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    done?.();
    return true;
  };
  (res as { end: unknown }).end = (chunk?: unknown, ...rest: unknown[]) => {
    if (!converting) return end(chunk, ...rest);
    if (chunk !== undefined && typeof chunk !== 'function') {
      text.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array | string));
    }
    const status = res.statusCode;
    const message = Buffer.concat(text).toString('utf8').trim() || (STATUS_CODES[status] ?? 'error');
    const done = [chunk, ...rest].find((arg) => typeof arg === 'function');
    return end(JSON.stringify(errorEnvelope(status, message, requestId())), ...(done ? [done] : []));
  };
}

/** Headers given to writeHead, as an object with lowercase names. */
function toObject(headers: unknown): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  if (Array.isArray(headers)) {
    const pairs = headers.every((h) => Array.isArray(h))
      ? (headers as [string, string][])
      : Array.from({ length: Math.floor(headers.length / 2) }, (_, i) => [headers[2 * i], headers[2 * i + 1]]);
    for (const [name, value] of pairs) out[String(name).toLowerCase()] = value as string;
  } else if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value as string;
  }
  return out;
}
