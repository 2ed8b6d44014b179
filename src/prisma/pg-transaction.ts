import type pg from 'pg';

/**
 * Runs `work` in one transaction on a pooled pg connection: BEGIN, then COMMIT when it returns,
 * ROLLBACK when it throws. A connection that cannot even roll back is discarded rather than
 * reused, and errors the server sends while it is checked out reach the caller through the
 * failing query instead of crashing the process as an unhandled 'error' event.
 */
export async function inPgTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
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
