/**
 * Baseline of the `version` benchmarks: a bare Express server doing exactly the service's work
 * for GET /files/version — the HTTP Basic check with the same cached verification as AuthService
 * (baseline-auth.ts), the same JSON, and, unless VERSION_BASELINE_LOGGING=off, the service's own
 * per-request work around it: a request id echoed in X-Request-Id and one structured log line per
 * request with the same fields, written the same asynchronous way (src/common/logger.ts) — without
 * NestJS, Prisma or body parsers. Started as its own process by the runner: PORT, HOST,
 * DATABASE_URL, VERSION_BASELINE_LOGGING.
 */
import { createServer } from 'node:http';
import express, { type Request, type Response } from 'express';
import { createLogger, requestContext } from '../../src/common/logger.js';
import { versionRecord } from '../../src/common/version.js';
import { createBaselineAuth, type BaselineUser } from './baseline-auth.js';
import { baselinePool, listenBaseline } from './baseline-http.js';

const pool = baselinePool();
const authenticate = createBaselineAuth(pool);

const app = express();
app.disable('x-powered-by');
if (process.env.VERSION_BASELINE_LOGGING !== 'off') app.use(requestContext(createLogger('info')));

function answer(req: Request, res: Response, user: BaselineUser | null): void {
  if (!user) {
    res.status(401).set('WWW-Authenticate', 'Basic realm="pdm", charset="UTF-8"').json({ status: 401 });
    return;
  }
  req.user = user; // the log line names the user, as the service's does
  res.json(versionRecord());
}

app.get('/files/version', (req: Request, res: Response) => {
  const user = authenticate(req.headers.authorization);
  if (user instanceof Promise) void user.then((u) => answer(req, res, u));
  else answer(req, res, user);
});

listenBaseline(createServer(app), pool);
