/** The settings that bound how long the service works on a request, and how long it waits for one. */
export interface TimeoutConfig {
  dbConnectTimeoutMs: number;
  dbStatementTimeoutMs: number;
  dbLockTimeoutMs: number;
  reportTimeoutMs: number;
  httpIdleTimeoutMs: number;
  shutdownTimeoutMs: number;
}

/**
 * The longest a request may wait for the database before it can answer (its variables' names
 * and the sum): a connection from the pool, then one statement, a report's or any other.
 * Requests of several statements may take longer; these are the limits that end in a documented
 * answer (a report's 504), which the server's own timeouts must not cut off.
 */
export function longestDatabaseWait(c: TimeoutConfig): { names: string; ms: number } {
  const statement =
    c.dbStatementTimeoutMs > c.reportTimeoutMs
      ? { name: 'DB_STATEMENT_TIMEOUT_MS', ms: c.dbStatementTimeoutMs }
      : { name: 'REPORT_TIMEOUT_MS', ms: c.reportTimeoutMs };
  return { names: `${statement.name} + DB_CONNECT_TIMEOUT_MS`, ms: statement.ms + c.dbConnectTimeoutMs };
}

/**
 * Every server timeout outlasts the work it wraps: HTTP_IDLE_TIMEOUT_MS closes a connection that
 * sends and receives nothing, which is also what a connection waiting for its answer does, and
 * SHUTDOWN_TIMEOUT_MS ends the process with the requests still in flight. Either one shorter than
 * the longest database wait would cut a request before its answer (an empty reply instead of a
 * report's 504, a reset instead of a report's rows).
 */
export function timeoutProblems(c: TimeoutConfig): string[] {
  const wait = longestDatabaseWait(c);
  const longer = `must be longer than ${wait.names} (${wait.ms} ms), the longest a request may wait for the database`;
  const problems: string[] = [];
  if (c.httpIdleTimeoutMs <= wait.ms) {
    problems.push(
      `HTTP_IDLE_TIMEOUT_MS: ${c.httpIdleTimeoutMs} ${longer}; its connection would be closed before the answer`,
    );
  }
  if (c.shutdownTimeoutMs <= wait.ms) {
    problems.push(
      `SHUTDOWN_TIMEOUT_MS: ${c.shutdownTimeoutMs} ${longer}; a request in flight at SIGTERM would be cut off`,
    );
  }
  if (c.dbStatementTimeoutMs > 0 && c.dbLockTimeoutMs >= c.dbStatementTimeoutMs) {
    problems.push(
      `DB_LOCK_TIMEOUT_MS: ${c.dbLockTimeoutMs} must be shorter than DB_STATEMENT_TIMEOUT_MS (${c.dbStatementTimeoutMs}); a change waiting for another would be cancelled as a statement past its time instead`,
    );
  }
  return problems;
}
