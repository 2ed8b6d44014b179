import type pg from 'pg';

/**
 * Forgets every failed sign-in counted so far. The counts live in the database and every test
 * app signs in from 127.0.0.1, so failures made on purpose by one test file would still count
 * against that address in the next one while their window lasts.
 */
export async function forgetSignInFailures(pool: pg.Pool): Promise<void> {
  await pool.query('DELETE FROM auth_failures');
}
