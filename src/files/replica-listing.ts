import type pg from 'pg';
import type { ContentItemRecord, HolderRecord } from './files.repository.js';

/**
 * A listing on the replica: the iteration's items there, provided the replica's row of the
 * iteration carries the stamp the primary showed ($2). No row: the replica does not show that
 * version (it lags, or a change came after the look-up); one row without an item: no files.
 */
const LIST_ON_REPLICA = {
  name: 'files-list-replica',
  text: `SELECT ci.id, ci.role, ci.file_name, ci.mime_type, ci.size::text AS size, ci.sha256
    FROM iterations i
    LEFT JOIN content_items ci ON ci.iteration_id = i.id AND ($3::text IS NULL OR ci.role = $3::text)
    WHERE i.id = $1::int4 AND i.xmin::text = $2::text
    ORDER BY ci.role, ci.file_name`,
};

interface ReplicaItemRow {
  id: number | null;
  role: string;
  file_name: string;
  mime_type: string;
  size: string;
  sha256: string;
}

/**
 * The files of an iteration (of one role, or all) read on the replica, ordered by role and name;
 * undefined when the replica does not show the iteration with the stamp the primary returned.
 */
export async function listItemsOnReplica(
  pool: pg.Pool,
  holder: Pick<HolderRecord, 'iterationId' | 'stamp'>,
  role: string | null,
): Promise<ContentItemRecord[] | undefined> {
  const { rows } = await pool.query<ReplicaItemRow>({
    ...LIST_ON_REPLICA,
    values: [holder.iterationId, holder.stamp, role],
  });
  if (rows.length === 0) return undefined;
  if (rows[0].id === null) return [];
  return rows.map((r) => ({
    id: r.id!,
    role: r.role,
    fileName: r.file_name,
    mimeType: r.mime_type,
    size: Number(r.size),
    sha256: r.sha256,
  }));
}
