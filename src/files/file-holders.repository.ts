import { latestOfBranchText } from '../objects/versioned/iterations.repository.js';
import type { HolderKey, HolderLookup } from './files.repository.js';

/**
 * The look-up of a holder of files (an iteration), its master and container, and optionally one
 * of its files, in one statement: FilesRepository's reads and FileChangeTx's share it.
 */

/** Runs one statement of a file change (parameters $1, $2, …) and returns its rows. */
export type ChangeSql = <R>(text: string, values: unknown[]) => Promise<R[]>;

export interface HolderRow {
  iteration_id: number;
  master_id: number;
  cls: string;
  number: string;
  version: string;
  iteration: number;
  latest: boolean;
  container_id: number;
  container_name: string;
  stamp: string;
  working: boolean;
  checked_out_by: number | null;
  checked_out_by_name: string | null;
  item_id: number | null;
  item_role: string | null;
  item_mime_type: string | null;
  item_size: bigint | null;
  item_sha256: string | null;
}

const HOLDER_COLUMNS = `i.id AS iteration_id, m.id AS master_id, m.class AS cls, m.number, i.version, i.iteration, i.latest,
           m.container_id, c.name AS container_name, i.xmin::text AS stamp,
           i.working, m.checked_out_by, ou.name AS checked_out_by_name,
           ci.id AS item_id, ci.role AS item_role, ci.mime_type AS item_mime_type, ci.size AS item_size,
           ci.sha256 AS item_sha256`;
const HOLDER_JOINS = `FROM iterations i
    JOIN masters m ON m.id = i.master_id
    JOIN containers c ON c.id = m.container_id
    LEFT JOIN users ou ON ou.id = m.checked_out_by`;

/**
 * The holder, its master and container, and optionally one of its files, in one statement:
 * downloads run this on every request, and Prisma's nested selects would take three.
 */
export async function findHolder(
  sql: ChangeSql,
  key: HolderKey,
  fileName: string | null,
): Promise<HolderLookup | null> {
  const where =
    key.kind === 'iteration'
      ? 'i.id = $2::int4'
      : key.kind === 'branch'
        ? `i.id = ${latestOfBranchText('$2::int4')}`
        : key.kind === 'number'
          ? 'm.class = $2 AND m.number = $3 AND i.latest'
          : 'm.id = $2::int4 AND i.latest';
  const rows = await sql<HolderRow>(
    `SELECT ${HOLDER_COLUMNS}
    ${HOLDER_JOINS}
    LEFT JOIN content_items ci ON ci.iteration_id = i.id AND ci.file_name = $1::text
    WHERE ${where}`,
    key.kind === 'number' ? [fileName, key.cls, key.number] : [fileName, key.id],
  );
  return rows[0] ? holderLookup(rows[0], fileName) : null;
}

/**
 * The statements of findHolderFor, one per kind of key ($1, $2: the key, $3 the file name, $4 the
 * caller), prepared once per connection: every read of the file service starts with one.
 */
const HOLDER_FOR_USER = {
  iteration: 'i.id = $1 AND $2::text IS NULL',
  branch: `i.id = ${latestOfBranchText('$1::int')} AND $2::text IS NULL`,
  number: 'm.class = $1 AND m.number = $2 AND i.latest',
  master: 'm.id = $1::int AND $2::text IS NULL AND i.latest',
} as const;

export function holderForUserQuery(kind: HolderKey['kind']): { name: string; text: string } {
  return {
    name: `files-holder-${kind}`,
    text: `SELECT ${HOLDER_COLUMNS}, mb.role AS member_role
    ${HOLDER_JOINS}
    LEFT JOIN content_items ci ON ci.iteration_id = i.id AND ci.file_name = $3
    LEFT JOIN access_roles mb ON mb.container_id = m.container_id AND mb.user_id = $4
    WHERE ${HOLDER_FOR_USER[kind]}`,
  };
}

export function holderLookup(row: HolderRow, fileName: string | null): HolderLookup {
  return {
    holder: {
      iterationId: row.iteration_id,
      masterId: row.master_id,
      cls: row.cls,
      number: row.number,
      version: row.version,
      iteration: row.iteration,
      latest: row.latest,
      containerId: row.container_id,
      containerName: row.container_name,
      stamp: row.stamp,
      working: row.working,
      checkedOutById: row.checked_out_by,
      checkedOutBy: row.checked_out_by_name,
    },
    item:
      row.item_id === null
        ? null
        : {
            id: row.item_id,
            role: row.item_role!,
            fileName: fileName!,
            mimeType: row.item_mime_type!,
            size: Number(row.item_size),
            sha256: row.item_sha256!,
          },
  };
}
