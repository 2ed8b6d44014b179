import type request from 'supertest';

/** The answer to a request the database could not serve: 503, Retry-After, the error envelope. */
export function expectUnavailable(res: request.Response): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.body).toEqual({
    statusCode: 503,
    error: 'Service Unavailable',
    message: 'the database is unavailable; retry shortly',
    requestId: expect.any(String),
  });
}

/** What a change answers when another holds the lock it waits for past DB_LOCK_TIMEOUT_MS. */
export const BUSY_CHANGING = 'another request is changing the same object; retry shortly';

/** The answer to a request that gave up waiting for a lock: 503, Retry-After 1, `message`. */
export function expectBusy(res: request.Response, message = BUSY_CHANGING): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.body).toEqual({
    statusCode: 503,
    error: 'Service Unavailable',
    message,
    requestId: expect.any(String),
  });
}
