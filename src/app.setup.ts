import { STATUS_CODES, type Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { AppConfig } from './config/app-config.js';
import { createLogger, requestContext } from './common/logger.js';
import type { Logger } from 'pino';
import { versionRecord } from './common/version.js';

/**
 * Everything about the HTTP application that is not a module: request ids, body parsing with
 * its limits (413 past them, in the error envelope), the route prefix and Swagger UI.
 * Used by main.ts and by the end-to-end tests, so both run the same stack.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig, logger?: Logger): void {
  app.disable('x-powered-by');
  // The client address (sign-in throttling, logs) behind a load balancer: see TRUST_PROXY.
  app.set('trust proxy', config.trustProxy);
  applyHttpTimeouts(app.getHttpServer() as Server, config);
  app.use(requestContext(logger ?? createLogger(config.logLevel)));
  // Bodies are read after authentication, by the global guard (RequestBodyReader), never by
  // Express middleware.
  if (config.basePath) app.setGlobalPrefix(config.basePath);
  setupSwagger(app, config);
}

/**
 * A client that sends its headers or body slowly, or stops sending, is cut off instead of holding
 * a connection (and what its request holds) for as long as it likes: 408 past the headers or the
 * request timeout, the connection closed past the idle timeout.
 */
export function applyHttpTimeouts(server: Server, config: AppConfig): void {
  server.headersTimeout = Math.min(config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs);
  server.requestTimeout = config.httpRequestTimeoutMs;
  server.setTimeout(config.httpIdleTimeoutMs);
  // Node checks the two timeouts above only this often (30 s by default, read when it starts
  // listening): a quarter of the shorter one keeps the cut close to the setting.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    30_000,
    Math.max(250, Math.floor(server.headersTimeout / 4)),
  );
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
