import type pg from 'pg';

export interface CadFixture {
  containerId: number;
  /** Iteration ids by number (the latest iteration of each). */
  iterations: Record<string, number>;
  /** Link ids of the assembly by member number. */
  links: Record<string, number>;
}

/**
 * A container with a CAD assembly `<p>-ASM` that uses three components (`<p>-C3`, `<p>-C1`,
 * `<p>-C2`, created in that order, without line numbers), a drawing, and a document, all by
 * alice; members as given.
 */
export async function createCadFixture(
  pool: pg.Pool,
  prefix: string,
  members: Record<string, 'reader' | 'author' | 'manager'>,
): Promise<CadFixture> {
  await pool.query('DELETE FROM masters WHERE number LIKE $1', [`${prefix}-%`]);
  await pool.query('DELETE FROM containers WHERE name = $1', [prefix]);
  const { rows } = await pool.query<{ id: number }>(
    "INSERT INTO containers (class, name) VALUES ('wt.pdmlink.PDMLinkProduct', $1) RETURNING id",
    [prefix],
  );
  const containerId = rows[0].id;
  for (const [user, role] of Object.entries(members)) {
    await pool.query(
      'INSERT INTO memberships (container_id, user_id, role) SELECT $1, id, $3::member_role FROM users WHERE name = $2',
      [containerId, user, role],
    );
  }
  const iterations: Record<string, number> = {};
  const make = async (cls: string, subtype: string | null, number: string) => {
    const m = await pool.query<{ id: number }>(
      'INSERT INTO masters (class, subtype, number, name, container_id) VALUES ($1, $2, $3, $3, $4) RETURNING id',
      [cls, subtype, number, containerId],
    );
    const i = await pool.query<{ id: number }>(
      `INSERT INTO iterations (master_id, created_by, modified_by, attributes)
       SELECT $1, id, id, '{"material": "aluminium"}' FROM users WHERE name = 'alice' RETURNING id`,
      [m.rows[0].id],
    );
    iterations[number] = i.rows[0].id;
    return m.rows[0].id;
  };
  await make('wt.epm.EPMDocument', 'CADASSEMBLY', `${prefix}-ASM`);
  const links: Record<string, number> = {};
  for (const c of ['C3', 'C1', 'C2']) {
    const master = await make('wt.epm.EPMDocument', 'CADCOMPONENT', `${prefix}-${c}`);
    const l = await pool.query<{ id: number }>(
      `INSERT INTO usage_links (class, parent_id, child_id, quantity)
       VALUES ('wt.epm.structure.EPMMemberLink', $1, $2, 2) RETURNING id`,
      [iterations[`${prefix}-ASM`], master],
    );
    links[`${prefix}-${c}`] = l.rows[0].id;
  }
  await make('wt.epm.EPMDocument', 'CADDRAWING', `${prefix}-DRW`);
  await make('wt.doc.WTDocument', null, `${prefix}-DOC`);
  return { containerId, iterations, links };
}
