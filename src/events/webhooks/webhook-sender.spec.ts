import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { CloudEvent } from '../cloud-event.js';
import { WebhookAddressPolicy, type WebhookResolver } from './webhook-address.js';
import { newWebhookSecret } from './webhook-secret.js';
import { WebhookSender } from './webhook-sender.js';

interface Received {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on the loopback interface that records each request before `answer` handles it. */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const received: Received[] = [];
  let connections = 0;
  let started = 0;
  const server: Server = createServer((req, res) => {
    started++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
      answer(req, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  servers.push(server);
  return { url: `http://127.0.0.1:${port}`, port, received, connections: () => connections, started: () => started };
}

const servers: Server[] = [];
const senders: WebhookSender[] = [];

function sender(options: { allow?: string[]; timeoutMs?: number; resolve?: WebhookResolver } = {}) {
  const policy = new WebhookAddressPolicy(options.allow ?? ['127.0.0.1'], options.resolve);
  const s = new WebhookSender({ policy, timeoutMs: options.timeoutMs ?? 5000, userAgent: 'pdm-test' });
  senders.push(s);
  return s;
}

/** Answers with `status` and a short body. */
const answerWith =
  (status: number, headers: Record<string, string> = {}) =>
  (_: IncomingMessage, res: ServerResponse) =>
    res.writeHead(status, headers).end(status === 204 ? undefined : 'thanks');

const event: CloudEvent = {
  specversion: '1.0',
  id: '1234567',
  source: 'urn:pdm-services',
  type: 'pdm.object.created',
  subject: '0000000042',
  time: '2026-11-27T10:00:00.000Z',
  datacontenttype: 'application/json',
  data: {
    action: 'objects.create',
    user: 'jürgen',
    object: { oid: '0000000042', number: 'P-1', name: 'Bracket ✓', type: 'Part', container: 'Plant' },
    detail: { after: { name: 'Bracket ✓' } },
  },
};

const signatureHeaders = (headers: IncomingHttpHeaders) => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});

afterEach(async () => {
  for (const s of senders.splice(0)) s.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('the webhook sender', () => {
  it('posts the event as CloudEvents JSON, signed so that the Standard Webhooks library verifies it', async () => {
    const hook = await receiver(answerWith(200));
    const secret = newWebhookSecret();
    const before = Math.floor(Date.now() / 1000);
    await expect(sender().send(`${hook.url}/hooks/pdm?tenant=a`, secret, event)).resolves.toEqual({
      kind: 'delivered',
      status: 200,
    });
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(request).toMatchObject({ method: 'POST', url: '/hooks/pdm?tenant=a' });
    expect(request.headers).toMatchObject({
      'content-type': 'application/cloudevents+json; charset=utf-8',
      'content-length': String(Buffer.byteLength(request.body)),
      'user-agent': 'pdm-test',
      'webhook-id': '1234567',
    });
    expect(Number(request.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(JSON.parse(request.body)).toEqual(event);
    expect(new Webhook(secret).verify(request.body, signatureHeaders(request.headers))).toEqual(event);
  });

  it('signs so that a changed body or another secret fails verification', async () => {
    const hook = await receiver(answerWith(200));
    const secret = newWebhookSecret();
    await sender().send(hook.url, secret, event);
    const [{ body, headers }] = hook.received;
    const tampered = body.replace('Bracket', 'Brackex');
    expect(tampered).not.toBe(body);
    expect(() => new Webhook(secret).verify(tampered, signatureHeaders(headers))).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newWebhookSecret()).verify(body, signatureHeaders(headers))).toThrow(
      'No matching signature found',
    );
  });

  it.each([200, 202, 204])('counts %i as delivered', async (status) => {
    const hook = await receiver(answerWith(status));
    await expect(sender().send(hook.url, newWebhookSecret(), event)).resolves.toEqual({ kind: 'delivered', status });
    expect(hook.received).toHaveLength(1);
  });

  it.each([
    [500, 'the receiver answered 500 Internal Server Error'],
    [503, 'the receiver answered 503 Service Unavailable'],
    [429, 'the receiver answered 429 Too Many Requests'],
  ])('tries %i again', async (status, error) => {
    const hook = await receiver(answerWith(status));
    await expect(sender().send(hook.url, newWebhookSecret(), event)).resolves.toEqual({ kind: 'retry', status, error });
  });

  it('takes 410 as gone', async () => {
    const hook = await receiver(answerWith(410));
    await expect(sender().send(hook.url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'gone',
      status: 410,
      error: 'the receiver answered 410 Gone',
    });
  });

  it.each([
    [400, 'the receiver answered 400 Bad Request'],
    [401, 'the receiver answered 401 Unauthorized'],
    [404, 'the receiver answered 404 Not Found'],
    [413, 'the receiver answered 413 Payload Too Large'],
  ])('rejects the event on %i', async (status, error) => {
    const hook = await receiver(answerWith(status));
    await expect(sender().send(hook.url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'rejected',
      status,
      error,
    });
  });

  it('does not follow a redirect', async () => {
    const hook = await receiver((req, res) =>
      req.url === '/moved' ? answerWith(302, { location: '/elsewhere' })(req, res) : answerWith(200)(req, res),
    );
    await expect(sender().send(`${hook.url}/moved`, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'rejected',
      status: 302,
      error: 'the receiver answered 302 Found to /elsewhere; redirects are not followed',
    });
    expect(hook.received.map((r) => r.url)).toEqual(['/moved']);
  });

  it('gives up on a receiver that does not answer in time, to try again', async () => {
    const hook = await receiver(() => {});
    await expect(sender({ timeoutMs: 200 }).send(hook.url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'retry',
      error: 'timed out after 200 ms',
    });
    expect(hook.received).toHaveLength(1);
  });

  it('gives up on an answer whose body does not end in time', async () => {
    const hook = await receiver((_, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('part of it');
    });
    await expect(sender({ timeoutMs: 200 }).send(hook.url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'retry',
      error: 'timed out after 200 ms',
    });
  });

  it('reads no more than 64 KiB of a long answer', async () => {
    const hook = await receiver((_, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(16 * 1024);
      // 1 MiB, never ended: only a sender that stops reading settles before the timeout.
      let sent = 0;
      const more = () => {
        while (sent < 64) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      more();
    });
    await expect(sender({ timeoutMs: 5000 }).send(hook.url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'delivered',
      status: 200,
    });
  });

  it('tries again when the connection is refused', async () => {
    const hook = await receiver(answerWith(200));
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await sender().send(hook.url, newWebhookSecret(), event);
    expect(outcome).toEqual({ kind: 'retry', error: `connect ECONNREFUSED 127.0.0.1:${hook.port}` });
  });

  it('tries again when the connection is reset', async () => {
    const hook = await receiver((req) => req.socket.destroy());
    const outcome = await sender().send(hook.url, newWebhookSecret(), event);
    expect(outcome).toEqual({ kind: 'retry', error: 'socket hang up' });
    expect(hook.received).toHaveLength(1);
  });

  it('tries again when the name does not resolve', async () => {
    const resolve: WebhookResolver = () =>
      Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.test'), { code: 'ENOTFOUND' }));
    await expect(sender({ resolve }).send('http://hooks.example.test/', newWebhookSecret(), event)).resolves.toEqual({
      kind: 'retry',
      error: 'getaddrinfo ENOTFOUND hooks.example.test',
    });
  });

  it('refuses for good an address the policy does not allow, without calling it', async () => {
    const hook = await receiver(answerWith(200));
    await expect(sender({ allow: [] }).send(hook.url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'rejected',
      error: '127.0.0.1 is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list',
    });
    await expect(
      sender({ allow: [] }).send(`http://localhost:${hook.port}/`, newWebhookSecret(), event),
    ).resolves.toEqual({
      kind: 'rejected',
      error: '127.0.0.1 (an address of localhost) is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list',
    });
    expect(hook.received).toHaveLength(0);
  });

  it('checks the address connected to even where nothing was looked up', async () => {
    const hook = await receiver(answerWith(200));
    // A policy whose URL check lets a literal loopback address through: the connection is still refused.
    const policy = new WebhookAddressPolicy([]);
    policy.checkUrl = () => null;
    const s = new WebhookSender({ policy, timeoutMs: 5000 });
    senders.push(s);
    await expect(s.send(hook.url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'rejected',
      error: '127.0.0.1 is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list',
    });
    expect(hook.started()).toBe(0);
  });

  it('connects to the address the name resolves to when it is checked, and only if it is allowed', async () => {
    const hook = await receiver(answerWith(200));
    const resolve: WebhookResolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const url = `http://hooks.example.test:${hook.port}/in`;
    await expect(sender({ allow: [], resolve }).send(url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'rejected',
      error:
        '127.0.0.1 (an address of hooks.example.test) is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list',
    });
    expect(hook.received).toHaveLength(0);
    await expect(sender({ allow: ['127.0.0.1'], resolve }).send(url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'delivered',
      status: 200,
    });
    await expect(
      sender({ allow: ['hooks.example.test'], resolve }).send(url, newWebhookSecret(), event),
    ).resolves.toEqual({ kind: 'delivered', status: 200 });
    expect(hook.received.map((r) => [r.url, r.headers.host])).toEqual([
      ['/in', `hooks.example.test:${hook.port}`],
      ['/in', `hooks.example.test:${hook.port}`],
    ]);
  });

  it('delivers to an IPv6 address the allow list names', async () => {
    const server = createServer((_, res) => res.writeHead(200).end());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    const url = `http://[::1]:${(server.address() as AddressInfo).port}/`;
    await expect(sender({ allow: ['::1'] }).send(url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'delivered',
      status: 200,
    });
    await expect(sender({ allow: [] }).send(url, newWebhookSecret(), event)).resolves.toEqual({
      kind: 'rejected',
      error: '::1 is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list',
    });
  });

  it('tries again when TLS fails', async () => {
    const hook = await receiver(answerWith(200));
    const outcome = await sender().send(`https://127.0.0.1:${hook.port}/`, newWebhookSecret(), event);
    expect(outcome.kind).toBe('retry');
    expect(outcome).toMatchObject({ error: expect.stringMatching(/SSL|TLS|wrong version/i) as unknown });
    expect(hook.received).toHaveLength(0);
  });

  it('keeps the connection to a receiver for the next event', async () => {
    const hook = await receiver(answerWith(204));
    const s = sender();
    const secret = newWebhookSecret();
    for (let i = 0; i < 3; i++)
      await expect(s.send(hook.url, secret, { ...event, id: String(i) })).resolves.toEqual({
        kind: 'delivered',
        status: 204,
      });
    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual(['0', '1', '2']);
    expect(hook.connections()).toBe(1);
  });

  it('rejects what it cannot send: a URL the policy refuses, a secret the library cannot use', async () => {
    const s = sender();
    await expect(s.send('ftp://hooks.example.com/', newWebhookSecret(), event)).resolves.toEqual({
      kind: 'rejected',
      error: 'a webhook URL starts with http:// or https://, not ftp://',
    });
    await expect(s.send('http://127.0.0.1:9/', 'whsec_', event)).resolves.toEqual({
      kind: 'rejected',
      error: "the subscription's secret cannot sign: Secret can't be empty.",
    });
  });
});
