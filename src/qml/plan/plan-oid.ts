import type { ColumnRef } from '../../catalog/storage.js';
import type { SqlExpr } from './plan-types.js';
import { MASTER_SUFFIX } from '../../catalog/standard-classes.js';

/** A column of a planned table (its helper join marked as used). */
export type ColumnOf = (ref: ColumnRef) => SqlExpr;

const text = (value: string): SqlExpr => ({ k: 'val', value, type: 'string' });
const asText = (e: SqlExpr): SqlExpr => ({ k: 'call', fn: 'TEXT', args: [e] });

/** `OR:<class>:<id>` from a class column and an id column (audit events name their object so). */
export function oidFromColumns(col: ColumnOf, at: { cls: ColumnRef; id: ColumnRef }): SqlExpr {
  return { k: 'call', fn: 'CONCAT', args: [text('OR:'), col(at.cls), text(':'), asText(col(at.id))] };
}

/**
 * The OID of an iteration's master, `OR:<class>Master:<master id>`: events are recorded on
 * masters, so every iteration of an object matches its events.
 */
export function masterOid(col: ColumnOf): SqlExpr {
  const cls = col({ aux: 'master', column: 'class' });
  const id = asText(col({ aux: 'self', column: 'master_id' }));
  return { k: 'call', fn: 'CONCAT', args: [text('OR:'), cls, text(`${MASTER_SUFFIX}:`), id] };
}
