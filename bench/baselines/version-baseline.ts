/**
 * Baseline of the `version` benchmark: a bare Express server doing exactly the service's work
 * for GET /files/version — the HTTP Basic check with the same cached verification as AuthService
 * (baseline-auth.ts) and the same JSON — without NestJS, Prisma, request ids or body parsers. Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import { createServer } from 'node:http';
import express, { type Request, type Response } from 'express';
import { versionRecord } from '../../src/common/version.js';
import { createBaselineAuth } from './baseline-auth.js';
import { baselinePool, listenBaseline } from './baseline-http.js';

const pool = baselinePool();
const authenticate = createBaselineAuth(pool);

const app = express();
app.disable('x-powered-by');
app.get('/files/version', async (req: Request, res: Response) => {
  if (!(await authenticate(req.headers.authorization))) {
    res.status(401).set('WWW-Authenticate', 'Basic realm="pdm", charset="UTF-8"').json({ status: 401 });
    return;
  }
  res.json(versionRecord());
});

listenBaseline(createServer(app), pool);
