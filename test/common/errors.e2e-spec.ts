import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describe('error envelope and body limits', () => {
  const t = useTestApp({ JSON_BODY_LIMIT: '1kb', XML_BODY_LIMIT: '1kb' });

  it('answers a body over the limit with 413 in the envelope', async () => {
    const res = await request(t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ data: 'x'.repeat(4000) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'request body larger than the limit of 1024 bytes',
      requestId: res.headers['x-request-id'],
    });
  });

  it('answers an XML body over its own limit with 413', async () => {
    const res = await request(t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', 'text/xml')
      .send(`<qml>${' '.repeat(4000)}</qml>`);
    expect(res.status).toBe(413);
    expect(res.body.statusCode).toBe(413);
  });

  it('answers malformed JSON with 400 in the envelope, without parser details', async () => {
    const res = await request(t.http)
      .post('/query/1.0/query')
      .auth(...USERS.alice)
      .set('Content-Type', 'application/json')
      .send('{"broken":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'request body is not valid JSON',
      requestId: expect.any(String),
    });
  });

  it('keeps a well-formed caller request id and echoes it', async () => {
    const res = await request(t.http)
      .get('/nowhere')
      .set('X-Request-Id', 'trace-123')
      .auth(...USERS.alice);
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toBe('trace-123');
    expect(res.body.requestId).toBe('trace-123');
  });

  it('replaces a malformed caller request id', async () => {
    const res = await request(t.http)
      .get('/nowhere')
      .set('X-Request-Id', 'bad id\twith tabs')
      .auth(...USERS.alice);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.requestId).toBe(res.headers['x-request-id']);
  });
});
