import pg from 'pg';

/**
 * Change data for the `reports` benchmark's change-management report, made from the parts of a
 * generated dataset (idempotent: nothing is added when change orders exist): per container, one
 * change order (`CN-<container>-<n>`) per 50 latest parts, two change activities per order
 * (IncludedIn2: role A the order, role B the activity, as in Windchill), and each part affected
 * by one activity (AffectedActivityData), the links in the container of their ends. Stored as the
 * service stores them: change objects in masters and iterations, links in `links`.
 */
export async function seedChanges(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const existing = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM masters WHERE class = 'wt.change2.WTChangeOrder2'`,
    );
    if (existing.rows[0].n > 0) return existing.rows[0].n;
    await client.query('BEGIN');
    await client.query(`
      CREATE TEMP TABLE bench_parts ON COMMIT DROP AS
      SELECT i.id AS part_id, m.container_id,
             (row_number() OVER (PARTITION BY m.container_id ORDER BY m.id) - 1) AS rn
      FROM iterations i JOIN masters m ON m.id = i.master_id
      WHERE m.class = 'wt.part.WTPart' AND i.latest`);
    const author = `(SELECT id FROM users ORDER BY id LIMIT 1)`;
    // Orders (rn / 50) and activities (rn / 25: two per order), one master and iteration each.
    for (const [cls, prefix, per] of [
      ['wt.change2.WTChangeOrder2', 'CN', 50],
      ['wt.change2.WTChangeActivity2', 'CA', 25],
    ] as const) {
      await client.query(
        `INSERT INTO masters (class, number, name, container_id)
         SELECT DISTINCT $1::text, $2::text || '-' || container_id || '-' || lpad((rn / $3)::text, 6, '0'),
                'change ' || (rn / $3), container_id
         FROM bench_parts`,
        [cls, prefix, per],
      );
      await client.query(
        `INSERT INTO iterations (master_id, state, attributes, created_by, modified_by)
         SELECT id, 'OPEN', '{"priority": "HIGH"}'::jsonb, ${author}, ${author} FROM masters WHERE class = $1`,
        [cls],
      );
    }
    const iterationOf = (prefix: 'CA' | 'CN', per: number) =>
      `(SELECT i.id FROM iterations i JOIN masters m ON m.id = i.master_id
        WHERE m.class = '${prefix === 'CA' ? 'wt.change2.WTChangeActivity2' : 'wt.change2.WTChangeOrder2'}'
          AND m.number = '${prefix}-' || p.container_id || '-' || lpad((p.rn / ${per})::text, 6, '0'))`;
    await client.query(`
      INSERT INTO links (class, role_a_id, role_b_id, container_id)
      SELECT DISTINCT 'wt.change2.IncludedIn2', ${iterationOf('CN', 50)}, ${iterationOf('CA', 25)}, p.container_id
      FROM bench_parts p`);
    await client.query(`
      INSERT INTO links (class, role_a_id, role_b_id, container_id)
      SELECT 'wt.change2.AffectedActivityData', ${iterationOf('CA', 25)}, p.part_id, p.container_id
      FROM bench_parts p`);
    await client.query('COMMIT');
    await client.query('ANALYZE masters, iterations, links');
    const made = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM masters WHERE class = 'wt.change2.WTChangeOrder2'`,
    );
    return made.rows[0].n;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
}
