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
