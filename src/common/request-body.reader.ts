import { BadRequestException, PayloadTooLargeException, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { BodyMemoryBudget } from './body-memory-budget.js';
import { HttpErrorWithHeaders } from './http-errors.js';
import { jsonDeeperThan, MAX_JSON_DEPTH } from './json-depth.js';
import { checkFormUtf8, checkJsonUtf8, checkTextUtf8 } from './invalid-utf8.js';
import { firstLoneSurrogate, loneSurrogateMessage } from './lone-surrogate.js';

export const JSON_TYPES = ['application/json'];
export const FORM_TYPES = ['application/x-www-form-urlencoded'];
export const XML_TYPES = ['text/xml', 'application/xml', 'application/*+xml'];

const STREAMED_BODY = 'pdm:streamedBody';

/** Marks a route that reads its request body itself, as a stream: it is not parsed for it. */
export const StreamedBody = () => SetMetadata(STREAMED_BODY, true);

/** The limits of AppConfig the reader applies (common/ depends on no other module). */
export interface BodyLimits {
  jsonBodyLimit: number;
  xmlBodyLimit: number;
  bodyMemoryBudget: number;
}

interface BodyParser {
  types: string[];
  limit: number;
  parse: RequestHandler;
}

/**
 * Reads and parses JSON, form and XML request bodies. The global guard calls it once the caller
 * is authenticated (auth.guard.ts), so a request without valid credentials is answered before a
 * byte of its body is read. (A guard rather than an interceptor: with no interceptor at all,
 * NestJS runs a handler without building an Observable chain per request.)
 * Bodies of other types (raw uploads) and of routes marked @StreamedBody() are left unread.
 *
 * A body is held in memory until its request is over, so its bytes are taken from the
 * BODY_MEMORY_BUDGET before it is read: its Content-Length, or its whole limit when the length
 * is not known in advance (chunked or compressed). One that does not fit is answered 503.
 */
export class RequestBodyReader {
  private readonly parsers: BodyParser[];
  private readonly streamed = new WeakMap<object, boolean>();

  constructor(
    config: BodyLimits,
    readonly budget = new BodyMemoryBudget(config.bodyMemoryBudget),
    private readonly reflector = new Reflector(),
  ) {
    this.parsers = [
      {
        types: JSON_TYPES,
        limit: config.jsonBodyLimit,
        parse: express.json({ type: JSON_TYPES, limit: config.jsonBodyLimit, verify: utf8Only(checkJsonUtf8) }),
      },
      {
        types: FORM_TYPES,
        limit: config.jsonBodyLimit,
        parse: express.urlencoded({
          type: FORM_TYPES,
          extended: false,
          limit: config.jsonBodyLimit,
          verify: utf8Only(checkFormUtf8),
        }),
      },
      {
        types: XML_TYPES,
        limit: config.xmlBodyLimit,
        parse: express.text({ type: XML_TYPES, limit: config.xmlBodyLimit, verify: utf8Only(checkTextUtf8) }),
      },
    ];
  }

  /** Reads the request's body if it has one to parse; undefined when there is nothing to wait for. */
  read(context: ExecutionContext): Promise<void> | undefined {
    const req = context.switchToHttp().getRequest<Request>();
    // Most requests are GETs without a body: they pass without a promise.
    if (!hasBody(req) || this.isStreamed(context)) return undefined;
    const parser = this.parsers.find((p) => req.is(p.types));
    if (!parser) return undefined;
    return this.parse(parser, req, context.switchToHttp().getResponse<Response>());
  }

  private async parse(parser: BodyParser, req: Request, res: Response): Promise<void> {
    const release = this.budget.reserve(this.bytesToHold(parser, req));
    if (!release) {
      throw new HttpErrorWithHeaders(503, 'too many request bodies are being received at once; retry shortly', {
        'Retry-After': '1',
      });
    }
    // 'close' comes on every ending: answered, failed, or the client gone.
    res.once('close', release);
    await new Promise<void>((resolve, reject) => {
      void parser.parse(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
    });
    if (typeof req.body !== 'object' || req.body === null) return;
    if (jsonDeeperThan(req.body, MAX_JSON_DEPTH)) {
      throw new BadRequestException(`request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    // Strings that are not Unicode text would reach SQL and fail there.
    const lone = firstLoneSurrogate(req.body);
    if (lone) throw new BadRequestException(loneSurrogateMessage('request body', lone));
  }

  /** What reading the body may hold in memory; a declared length past the limit is refused unread. */
  private bytesToHold(parser: BodyParser, req: Request): number {
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    const declared = req.headers['content-length'];
    if (encoding !== 'identity' || declared === undefined || req.headers['transfer-encoding'] !== undefined) {
      return parser.limit;
    }
    const length = Number(declared);
    if (length > parser.limit) {
      throw new PayloadTooLargeException(`request body larger than the limit of ${parser.limit} bytes`);
    }
    return length;
  }

  private isStreamed(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.streamed.get(handler);
    if (known === undefined) {
      known = this.reflector.getAllAndOverride<boolean>(STREAMED_BODY, [handler, context.getClass()]) === true;
      this.streamed.set(handler, known);
    }
    return known;
  }
}

/** A length or chunked encoding: the parsers' own test, made before anything else. */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/**
 * A body declared (or defaulting to) UTF-8 must be valid UTF-8, not silently repaired into
 * U+FFFD by the parser (invalid-utf8.ts); one in another charset its parser may take is decoded
 * from that.
 */
function utf8Only(check: (bytes: Buffer) => void) {
  return (req: Request, _res: Response, bytes: Buffer): void => {
    const charset = /charset=([^;]+)/i
      .exec(req.headers['content-type'] ?? '')?.[1]
      ?.trim()
      .toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') return;
    check(bytes);
  };
}
