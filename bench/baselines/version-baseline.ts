/**
 * Baseline of the `version` benchmark: a bare Express server doing exactly the service's work
 * for GET /files/version — the HTTP Basic check with the same cached verification as AuthService
 * (baseline-auth.ts) and the same JSON — without NestJS, Prisma, request ids or body parsers. Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import { createServer } from 'node:http';
import express, { type Request, type Response } from 'express';
import { versionRecord } from '../../src/common/version.js';
import { createBaselineAuth, type BaselineUser } from './baseline-auth.js';
import { baselinePool, listenBaseline } from './baseline-http.js';

const pool = baselinePool();
const authenticate = createBaselineAuth(pool);

const app = express();
app.disable('x-powered-by');
function answer(res: Response, user: BaselineUser | null): void {
  if (!user) {
    res.status(401).set('WWW-Authenticate', 'Basic realm="pdm", charset="UTF-8"').json({ status: 401 });
    return;
  }
  res.json(versionRecord());
}

app.get('/files/version', (req: Request, res: Response) => {
  const user = authenticate(req.headers.authorization);
  if (user instanceof Promise) void user.then((u) => answer(res, u));
  else answer(res, user);
});

listenBaseline(createServer(app), pool);
