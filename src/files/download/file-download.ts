import { HttpStatus } from '@nestjs/common';
import contentDisposition from 'content-disposition';
import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpErrorWithHeaders } from '../../common/http-errors.js';
import type { KeptFile } from '../cache/disk-cache.js';
import {
  matchesStrong,
  matchesWeak,
  parseEntityTags,
  parseRange,
  type ByteRange,
  type EntityTags,
} from './http-conditions.js';

/** What a download needs to know about the stored file. */
export interface DownloadableFile {
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/** The bytes of a file to send. */
export interface FileBytes {
  /** The bytes (or a range of them), opened: fails before any byte when they cannot be read. */
  open(range?: ByteRange): Readable | KeptFile | Promise<Readable | KeptFile>;
  /** Fails as open() would, without reading the bytes (for HEAD). */
  check(): Promise<void>;
}

/** Types a browser may show in place: they cannot run script in the service's origin. */
const SHOWN_INLINE =
  /^(image\/(png|jpeg|gif|webp|avif|bmp)|application\/pdf|text\/(plain|csv|markdown)|application\/json|(audio|video)\/[\w.+-]+)$/;

/**
 * Everything else (HTML, SVG, XML, scripts, unknown types) is an attachment, and the sandboxing
 * policy stops it from running script even if a browser renders it. PDF viewers do not work
 * in a sandbox, and PDFs cannot script the origin, so they go without it.
 */
const SANDBOX = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * Sends a stored file: conditional requests (If-Match → 412, If-None-Match → 304), one byte
 * range (206, 416 when unsatisfiable, If-Range), HEAD, and headers that keep browsers from
 * sniffing or rendering active content. The body is streamed with backpressure; a client that
 * goes away stops the database reads.
 */
export async function sendFile(req: Request, res: Response, file: DownloadableFile, bytes: FileBytes): Promise<void> {
  const etag = `"${file.sha256}"`;
  const ifMatch = conditionHeader(req, 'if-match');
  if (ifMatch && !matchesStrong(ifMatch, file.sha256)) {
    throw new HttpErrorWithHeaders(HttpStatus.PRECONDITION_FAILED, `If-Match: the file's ETag is ${etag}`, {
      ETag: etag,
    });
  }
  const ifNoneMatch = conditionHeader(req, 'if-none-match');
  if (ifNoneMatch && matchesWeak(ifNoneMatch, file.sha256)) {
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.status(HttpStatus.NOT_MODIFIED).end();
    return;
  }

  let range: ByteRange | undefined;
  const rangeHeader = req.get('range');
  if (rangeHeader !== undefined && rangeApplies(req, file.sha256)) {
    const parsed = parseRange(rangeHeader, file.size);
    if (parsed === 'unsatisfiable') {
      throw new HttpErrorWithHeaders(
        HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
        `range ${rangeHeader} lies outside the file of ${file.size} bytes`,
        { 'Content-Range': `bytes */${file.size}`, ETag: etag },
      );
    }
    if (parsed) range = parsed;
  }

  // The body is opened before the file's headers are set: a file that cannot be read is
  // answered with an error of its own, not with the file's headers and a cut-off body. HEAD
  // gets the same answer as GET, from a check that reads nothing.
  const head = req.method === 'HEAD';
  if (head && file.size > 0) await bytes.check();
  const body = head || file.size === 0 ? null : await bytes.open(range);
  const inline = SHOWN_INLINE.test(file.mimeType.toLowerCase());
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('Content-Type', file.mimeType);
  res.setHeader('Content-Disposition', disposition(file.fileName, inline ? 'inline' : 'attachment'));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (file.mimeType.toLowerCase() !== 'application/pdf') res.setHeader('Content-Security-Policy', SANDBOX);
  res.setHeader('Accept-Ranges', 'bytes');
  if (range) {
    res.status(HttpStatus.PARTIAL_CONTENT);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    res.setHeader('Content-Length', range.end - range.start + 1);
  } else {
    res.status(HttpStatus.OK);
    res.setHeader('Content-Length', file.size);
  }
  if (!body) {
    res.end();
    return;
  }
  if (!(body instanceof Readable)) return body.send(res);
  try {
    await pipeline(body, res);
  } catch (e) {
    // A client that disconnects mid-download is not an error of the service.
    if ((e as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw e;
  }
}

/** filename= gets an ASCII stand-in, filename* the real UTF-8 name, whenever they differ. */
function disposition(fileName: string, type: 'inline' | 'attachment'): string {
  return contentDisposition(fileName, { type, fallback: fileName.replace(/[^\x20-\x7e]/g, '_') });
}

function conditionHeader(req: Request, name: 'if-match' | 'if-none-match'): EntityTags | undefined {
  const value = req.get(name);
  // A malformed one throws a HeaderError: 400 with its message (common/input-error.ts).
  return value === undefined ? undefined : parseEntityTags(value, name === 'if-match' ? 'If-Match' : 'If-None-Match');
}

/** If-Range: the range applies only while the file still has the given (strong) ETag. */
function rangeApplies(req: Request, sha256: string): boolean {
  const ifRange = req.get('if-range');
  if (ifRange === undefined) return true;
  try {
    return matchesStrong(parseEntityTags(ifRange, 'If-Range'), sha256);
  } catch {
    // A date or anything else we cannot compare exactly: send the whole file (RFC 9110 §13.1.5).
    return false;
  }
}
