import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { MASTER_SUFFIX, OidClass } from '../../catalog/standard-classes.js';
import { PrismaService } from '../../prisma/prisma.service.js';

/** A link of a catalog link class as a dataset gives it. */
export interface ImportedLink {
  cls: string;
  softType: string | null;
  a: number;
  b: number;
  containerId: number | null;
  props: Record<string, unknown>;
}

/** A record a dataset's reference names: its id and the class its OID carries. */
export interface NamedRecord {
  id: number;
  cls: string;
}

/** The storages a dataset's reference may name. */
export type NamedStorage = 'object' | 'iteration' | 'master' | 'user' | 'container';

/**
 * Catalog links as the dataset import writes them, and the records a dataset's references name,
 * in the caller's transaction.
 */
@Injectable()
export class ImportedLinksRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Adds the link, or updates the one the class has between these two ends (modified_at moves only on a change). */
  async put(l: ImportedLink): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO links (class, soft_type, role_a_id, role_b_id, container_id, props)
      VALUES (${l.cls}, ${l.softType}, ${l.a}, ${l.b}, ${l.containerId}, ${JSON.stringify(l.props)}::jsonb)
      ON CONFLICT (class, role_a_id, role_b_id) DO UPDATE
      SET soft_type = EXCLUDED.soft_type, container_id = EXCLUDED.container_id, props = EXCLUDED.props,
          modified_at = CASE WHEN links.props IS DISTINCT FROM EXCLUDED.props
            OR links.container_id IS DISTINCT FROM EXCLUDED.container_id THEN now() ELSE links.modified_at END`;
  }

  /**
   * The number of the versioned object an iteration or master id names and who holds it checked
   * out, its master held (FOR SHARE, as /objects holds a link's end) until the import ends.
   */
  async holderOf(
    storage: 'iteration' | 'master',
    id: number,
  ): Promise<{ number: string; holder: string | null } | null> {
    const master =
      storage === 'master' ? Prisma.sql`${id}::int` : Prisma.sql`(SELECT master_id FROM iterations WHERE id = ${id})`;
    const rows = await this.prisma.$queryRaw<{ number: string; holder: string | null }[]>`
      SELECT m.number, (SELECT u.name FROM users u WHERE u.id = m.checked_out_by) AS holder
      FROM masters m WHERE m.id = ${master} FOR SHARE OF m`;
    return rows[0] ?? null;
  }

  /**
   * The records of `storage` among `classes` that `key` names: an object by number (or name),
   * the latest iteration or the master of a versioned object by number, a user or a container by name.
   */
  find(storage: NamedStorage, classes: string[], key: string): Promise<NamedRecord[]> {
    switch (storage) {
      case 'object':
        return this.prisma.$queryRaw`
          SELECT id, class AS cls FROM objects
          WHERE class = ANY(${classes}::text[]) AND (number = ${key} OR (number IS NULL AND name = ${key}))`;
      case 'iteration':
        return this.prisma.$queryRaw`
          SELECT i.id, m.class AS cls FROM iterations i JOIN masters m ON m.id = i.master_id
          WHERE m.class = ANY(${classes}::text[]) AND m.number = ${key} AND i.latest`;
      case 'master':
        return this.prisma.$queryRaw`
          SELECT id, class || ${MASTER_SUFFIX}::text AS cls FROM masters
          WHERE class = ANY(${classes}::text[]) AND number = ${key}`;
      case 'user':
        return this.prisma.$queryRaw`SELECT id, ${OidClass.user}::text AS cls FROM users WHERE name = ${key}`;
      case 'container':
        return this.prisma.$queryRaw`SELECT id, class AS cls FROM containers WHERE name = ${key}`;
    }
  }

  /** The classes of records a number or name names, whatever their storage (at most five). */
  async classesNamed(key: string): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ cls: string }[]>`
      SELECT DISTINCT cls FROM (
        SELECT class AS cls FROM masters WHERE number = ${key}
        UNION ALL SELECT class FROM objects WHERE number = ${key} OR (number IS NULL AND name = ${key})
        UNION ALL SELECT ${OidClass.user}::text FROM users WHERE name = ${key}
        UNION ALL SELECT class FROM containers WHERE name = ${key}) t
      ORDER BY cls LIMIT 5`;
    return rows.map((r) => r.cls);
  }
}
