/**
 * Patch of pg (node-postgres), written for 8.23.1 (accepted on 8.23.x: see versions.ts), for the
 * Prisma CLI only: prisma.config.ts applies it; the running service never loads it.
 *
 * Touches: pg.Result.prototype.addFields (not documented), which records the columns of a result
 * (their type OIDs) before any row is parsed; it is wrapped for every pg result in the process.
 *
 * Why: prisma/prisma#27403: Prisma's schema engine reads catalog columns of type `name` (OID 19)
 * and `"char"` (OID 18), which @prisma/adapter-pg 6.19 cannot deserialize. They are reported as
 * text (OID 25), which it can; pg parses all three from the same text.
 *
 * Remove when: on a Prisma release whose adapter-pg reads `name` and `"char"` (fixed in
 * adapter-pg 7), `npx prisma migrate deploy` on an empty database succeeds without it.
 */
import pg from 'pg';
import { PatchError } from './patch-error.js';

const PATCH = 'pg-name-types-as-text';
const NAME = 19;
const CHAR = 18;
const TEXT = 25;

type PgField = { dataTypeID: number };
interface ResultInternals {
  addFields(fields: PgField[]): void;
}

/** Whether the patch is applied (it is applied once per process). */
let applied = false;

/** From now on, every pg result of this process reports `name` and `"char"` columns as text. */
export function nameTypesAsText(): void {
  if (applied) return;
  const proto = pg.Result.prototype as unknown as Partial<ResultInternals>;
  const addFields = proto.addFields;
  if (typeof addFields !== 'function') throw new PatchError(PATCH, 'pg.Result.prototype.addFields is missing');
  proto.addFields = function (this: unknown, fields: PgField[]) {
    for (const f of fields) if (f.dataTypeID === NAME || f.dataTypeID === CHAR) f.dataTypeID = TEXT;
    return addFields.call(this, fields);
  };
  applied = true;
}
