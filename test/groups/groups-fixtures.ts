import type pg from 'pg';
import { hashPassword } from '../../src/auth/password.js';

/** Users of a test's own (name-pw as password), made anew: earlier runs' rows are deleted first. */
export async function makeUsers(pool: pg.Pool, names: readonly string[]): Promise<Record<string, [string, string]>> {
  const out: Record<string, [string, string]> = {};
  await pool.query('DELETE FROM users WHERE name = ANY($1)', [names]);
  for (const name of names) {
    await pool.query('INSERT INTO users (name, password_hash) VALUES ($1, $2)', [
      name,
      await hashPassword(`${name}-pw`),
    ]);
    out[name] = [name, `${name}-pw`];
  }
  return out;
}

/**
 * Every user's effective role per container computed from scratch (memberships, group users,
 * nested groups, group roles), as access_roles must hold it.
 */
export const ACCESS_FROM_SCRATCH = `
  WITH RECURSIVE ug(user_id, group_id) AS (
    SELECT user_id, group_id FROM group_users
    UNION
    SELECT ug.user_id, gg.group_id FROM ug JOIN group_groups gg ON gg.member_group_id = ug.group_id
  ), granted AS (
    SELECT user_id, container_id, role FROM memberships
    UNION ALL
    SELECT ug.user_id, gm.container_id, gm.role FROM ug JOIN group_memberships gm ON gm.group_id = ug.group_id
  )
  SELECT user_id, container_id, max(role)::text AS role FROM granted GROUP BY 1, 2 ORDER BY 1, 2`;

/** access_roles as it is and as it should be. */
export async function accessRolesNowAndFromScratch(pool: pg.Pool): Promise<[unknown[], unknown[]]> {
  const now = await pool.query('SELECT user_id, container_id, role::text AS role FROM access_roles ORDER BY 1, 2');
  const scratch = await pool.query(ACCESS_FROM_SCRATCH);
  return [now.rows, scratch.rows];
}
