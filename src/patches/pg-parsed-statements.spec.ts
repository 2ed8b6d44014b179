import pg from 'pg';
import { forgetPrepared, isPrepared } from './pg-parsed-statements.js';

// Deallocating on a real connection: test/reports/reports-prepared.e2e-spec.ts.
describe('isPrepared and forgetPrepared (src/patches/pg-parsed-statements.ts)', () => {
  it("find pg's record of prepared statements on the installed pg's client", () => {
    const client = new pg.Client(); // not connected: its connection and record exist already
    expect(isPrepared(client, 'report_a')).toBe(false);
    (client.connection as unknown as { parsedStatements: Record<string, string> }).parsedStatements.report_a =
      'SELECT 1';
    expect(isPrepared(client, 'report_a')).toBe(true);
    forgetPrepared(client, 'report_a');
    expect(isPrepared(client, 'report_a')).toBe(false);
  });

  it('say so when a client has no such record', () => {
    const bare = {} as pg.ClientBase;
    const message =
      'src/patches/pg-parsed-statements.ts, written for pg 8.23.1, cannot work: the client has no connection.parsedStatements.';
    expect(() => isPrepared(bare, 'report_a')).toThrow(message);
    expect(() => forgetPrepared(bare, 'report_a')).toThrow(message);
  });
});
