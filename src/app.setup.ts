import { STATUS_CODES } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { AppConfig } from './config/app-config.js';
import { errorEnvelope } from './common/error-envelope.js';
import { jsonDeeperThan, MAX_JSON_DEPTH } from './common/json-depth.js';
import { firstLoneSurrogate, loneSurrogateMessage } from './common/lone-surrogate.js';
import { bodyParserError } from './common/http-error.filter.js';
import { requestIdOf } from './common/request-id.js';
import { createLogger, requestContext } from './common/logger.js';
import type { Logger } from 'pino';
import { versionRecord } from './common/version.js';

export const XML_TYPES = ['text/xml', 'application/xml', 'application/*+xml'];

/**
 * Everything about the HTTP application that is not a module: request ids, body parsers with
 * their limits (413 past them, in the error envelope), the route prefix and Swagger UI.
 * Used by main.ts and by the end-to-end tests, so both run the same stack.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig, logger?: Logger): void {
  app.disable('x-powered-by');
  app.use(requestContext(logger ?? createLogger(config.logLevel)));
  app.use(bodyParsers(config));
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    const known = bodyParserError(err);
    if (!known) return next(err);
    res.status(known.status).json(errorEnvelope(known.status, known.message, requestIdOf(req)));
  });
  if (config.basePath) app.setGlobalPrefix(config.basePath);
  setupSwagger(app, config);
}

/**
 * The JSON, form and XML parsers, run only for requests that carry a body (a length or chunked
 * encoding, as the parsers themselves decide): most requests are GETs, and skipping four layers
 * for them is measurable on the cheapest endpoints.
 */
function bodyParsers(config: AppConfig): RequestHandler {
  const parsers = express
    .Router()
    .use(
      express.json({ limit: config.jsonBodyLimit }),
      rejectDeepJson,
      rejectLoneSurrogates,
      express.urlencoded({ extended: false, limit: config.jsonBodyLimit }),
      express.text({ type: XML_TYPES, limit: config.xmlBodyLimit, verify: strictUtf8 }),
    );
  return (req, res, next) => {
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) return next();
    void parsers(req, res, next);
  };
}

/** A parsed JSON body nested too deep for the code after the parser is answered 400 here. */
function rejectDeepJson(req: Request, res: Response, next: NextFunction): void {
  if (!jsonDeeperThan(req.body, MAX_JSON_DEPTH)) return next();
  const message = `request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
  res.status(400).json(errorEnvelope(400, message, requestIdOf(req)));
}

/** Strings that are not Unicode text would reach SQL and fail there: a 400 naming where. */
function rejectLoneSurrogates(req: Request, res: Response, next: NextFunction): void {
  const found = firstLoneSurrogate(req.body);
  if (!found) return next();
  res.status(400).json(errorEnvelope(400, loneSurrogateMessage('request body', found), requestIdOf(req)));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** XML bodies declared (or defaulting to) UTF-8 must be valid UTF-8, not silently repaired. */
function strictUtf8(req: Request, _res: Response, buf: Buffer): void {
  const charset = /charset=([^;]+)/i
    .exec(req.headers['content-type'] ?? '')?.[1]
    ?.trim()
    .toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') return;
  try {
    utf8.decode(buf);
  } catch {
    throw Object.assign(new Error('request body is not valid UTF-8'), { status: 400, type: 'encoding.invalid' });
  }
}

function setupSwagger(app: NestExpressApplication, config: AppConfig): void {
  const doc = new DocumentBuilder()
    .setTitle('PDM services')
    .setDescription(
      'Reports, files, numbers and query services of the document-management backend. ' +
        'Every service endpoint needs HTTP Basic credentials: use "Authorize" first.',
    )
    .setVersion(versionRecord().version)
    .addBasicAuth({ type: 'http', scheme: 'basic' }, 'basic')
    .build();
  const document = withErrorExamples(SwaggerModule.createDocument(app, doc));
  SwaggerModule.setup('docs', app, document, {
    useGlobalPrefix: Boolean(config.basePath),
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
  });
}

/**
 * Every error response shares the ErrorEnvelopeDto schema; give each one an example with its own
 * status code and description, so Swagger UI does not show the schema's 404 example everywhere.
 */
function withErrorExamples(document: OpenAPIObject): OpenAPIObject {
  for (const path of Object.values(document.paths)) {
    for (const op of Object.values(path) as { responses?: Record<string, unknown> }[]) {
      for (const [code, response] of Object.entries(op?.responses ?? {})) {
        const status = Number(code);
        const r = response as {
          description?: string;
          content?: Record<string, { schema?: { $ref?: string }; example?: unknown }>;
        };
        const json = r.content?.['application/json'];
        if (status < 400 || !json?.schema?.$ref?.endsWith('/ErrorEnvelopeDto') || json.example) continue;
        json.example = {
          statusCode: status,
          error: STATUS_CODES[status] ?? 'Error',
          message: r.description ?? '',
          requestId: '4f9c2a1e-8d1b-4f57-9a44-3c1f0c6f7e21',
        };
      }
    }
  }
  return document;
}
