import type pg from 'pg';

export interface PgTransactionOptions {
  /**
   * false: the transaction is rolled back even when `work` returns, for one that only holds locks
   * (or rows only it sees) while `work` does something outside the database; a ROLLBACK that
   * fails then discards the connection but does not fail the call. Default true.
   */
  commit?: boolean;
}

/**
 * Runs `work` in one transaction on a pooled pg connection: BEGIN, then COMMIT when it returns
 * (ROLLBACK with `commit: false`), ROLLBACK when it throws. A connection that cannot even roll
 * back is discarded rather than reused, and errors the server sends while it is checked out
 * reach the caller through the failing query instead of crashing the process as an unhandled
 * 'error' event.
 */
export async function inPgTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options: PgTransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    if (options.commit !== false) await client.query('COMMIT');
    else {
      // A connection lost by now has rolled back as well: the connection goes, the result stands.
      await client.query('ROLLBACK').catch((e: Error) => {
        failure = e;
      });
    }
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {
      failure = e as Error;
    });
    throw e;
  } finally {
    client.off('error', ignore);
    client.release(failure);
  }
}

/**
 * Runs `work` on a pooled pg connection outside a transaction (a COPY TO, for one). A connection
 * whose work failed is discarded: it may be left in the middle of the statement. Errors the
 * server sends while it is checked out reach the caller through the failing query, as in
 * inPgTransaction.
 */
export async function withPgClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    return await work(client);
  } catch (e) {
    failure = e as Error;
    throw e;
  } finally {
    client.off('error', ignore);
    client.release(failure);
  }
}
