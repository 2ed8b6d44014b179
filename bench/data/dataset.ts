/**
 * Loads a synthetic dataset of N business objects into a benchmark database, in one
 * transaction: truncate, drop indexes and foreign keys, COPY everything, rebuild, commit.
 */
import type pg from 'pg';
import { applyMigrations } from '../../src/prisma/migrate.js';
import { benchDatabaseUrl, ensureDatabase, redact, withClient } from '../harness/database.js';
import { copyInto, dataTables, dropConstraintsAndIndexes, fixSequences } from './bulk.js';
import { text, timestamp } from './copy-text.js';
import { CLASSES, createOrg, hashPasswords, type Org } from './org.js';
import { Prng } from './prng.js';
import { COLUMNS, ObjectSynth, type Batch, type BulkTable } from './synth.js';

export interface GenerateOptions {
  objects: number;
  filesPerObject?: number;
  seed?: string;
  databaseUrl?: string;
  /** Replace the data of a database that already holds some (all tables are truncated). */
  reset?: boolean;
  log?: (line: string) => void;
}

export interface GenerateSummary {
  database: string;
  counts: Record<string, number>;
  /** Bytes of COPY text sent, and of file contents among them. */
  copyBytes: number;
  fileBytes: number;
  databaseBytes: number;
  seconds: { load: number; indexes: number; analyze: number; total: number };
}

/** Thrown when the database already holds data and reset was not asked for. */
export class NotEmptyError extends Error {}

const BULK_TABLES: BulkTable[] = ['masters', 'iterations', 'content_blobs', 'blob_chunks', 'content_items', 'usage_links'];
const BATCH_OBJECTS = 20_000;
const CREATED_AT = Date.UTC(2019, 0, 1);

export async function generateDataset(opts: GenerateOptions): Promise<GenerateSummary> {
  const log = opts.log ?? (() => {});
  if (!Number.isSafeInteger(opts.objects) || opts.objects < 1) throw new Error('objects must be a positive integer');
  const files = opts.filesPerObject ?? 1;
  if (!Number.isSafeInteger(files) || files < 0 || files > 20) throw new Error('files per object must be from 0 to 20');
  const url = benchDatabaseUrl(opts.databaseUrl);
  const started = performance.now();

  if (await ensureDatabase(url)) log(`created the database ${redact(url)}`);
  await applyMigrations(url);

  const prng = new Prng(String(opts.seed ?? '1'));
  const org = createOrg(prng, opts.objects);
  const hashes = hashPasswords(org.users);

  return withClient(url, async (client) => {
    await refuseUnlessEmpty(client, Boolean(opts.reset));
    const copied = { bytes: 0, files: 0 };
    await client.query('BEGIN');
    try {
      // A running service would block TRUNCATE forever; fail with a message instead.
      await client.query("SET LOCAL lock_timeout = '10s'");
      await client.query("SET LOCAL maintenance_work_mem = '1GB'");
      await client.query(`TRUNCATE ${(await dataTables(client)).join(', ')} RESTART IDENTITY CASCADE`);
      const restore = await dropConstraintsAndIndexes(client, BULK_TABLES);
      copied.bytes += await copyOrg(client, org, await hashes);

      const synth = new ObjectSynth(org, prng, files);
      let written: Promise<void> = Promise.resolve();
      for (let done = 0; done < opts.objects; ) {
        const n = Math.min(BATCH_OBJECTS, opts.objects - done);
        // Generate the next batch while the previous one is still streaming to the server.
        const batch = await synth.generate(n);
        await written;
        written = writeBatch(client, batch, copied);
        written.catch(() => {}); // awaited below; this only keeps it from counting as unhandled
        done += n;
        if (done % 200_000 === 0 || done === opts.objects) log(`  ${done} objects generated (${secondsSince(started)} s)`);
      }
      await written;
      const loaded = performance.now();
      log(`rebuilding ${restore.length} indexes and constraints`);
      for (const statement of restore) await client.query(statement);
      await fixSequences(client);
      await client.query('COMMIT');
      const indexed = performance.now();
      await client.query('ANALYZE');
      const analyzed = performance.now();

      const counts: Record<string, number> = {};
      for (const t of await dataTables(client)) {
        counts[t] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
      }
      const size = await client.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n');
      return {
        database: redact(url),
        counts,
        copyBytes: copied.bytes,
        fileBytes: copied.files,
        databaseBytes: Number(size.rows[0].n),
        seconds: {
          load: round((loaded - started) / 1000),
          indexes: round((indexed - loaded) / 1000),
          analyze: round((analyzed - indexed) / 1000),
          total: round((analyzed - started) / 1000),
        },
      };
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    }
  });
}

async function refuseUnlessEmpty(client: pg.Client, reset: boolean): Promise<void> {
  const r = await client.query<{ objects: string; users: string }>(
    'SELECT (SELECT count(*) FROM masters) AS objects, (SELECT count(*) FROM users) AS users',
  );
  const objects = Number(r.rows[0].objects);
  const users = Number(r.rows[0].users);
  if ((objects > 0 || users > 0) && !reset) {
    throw new NotEmptyError(
      `the database already holds ${objects} business objects and ${users} users; ` +
        'pass --reset to truncate every table and load the new dataset instead',
    );
  }
}

async function writeBatch(client: pg.Client, batch: Batch, copied: { bytes: number; files: number }): Promise<void> {
  for (const table of BULK_TABLES) copied.bytes += await copyInto(client, table, COLUMNS[table], batch[table].bytes());
  copied.files += batch.fileBytes;
}

async function copyOrg(client: pg.Client, org: Org, hashes: Map<number, string>): Promise<number> {
  const at = timestamp(CREATED_AT);
  const rows: Record<string, [string, string[]]> = {
    content_roles: ['name', org.roles],
    users: [
      'id, name, password_hash, admin, full_name, email, disabled, created_at',
      org.users.map((u) =>
        [u.id, u.name, hashes.get(u.id)!, u.admin ? 't' : 'f', u.fullName, `${u.name}@example.com`, u.disabled ? 't' : 'f', at].join('\t'),
      ),
    ],
    containers: [
      'id, class, name, description, created_at',
      org.containers.map((c) => [c.id, c.cls, text(c.name), `${c.name} (synthetic benchmark data)`, at].join('\t')),
    ],
    memberships: [
      'container_id, user_id, role',
      org.containers.flatMap((c) => [...c.members].map(([user, role]) => `${c.id}\t${user}\t${role}`)),
    ],
    numbering_rules: [
      'id, container_id, class, prefix, suffix, width, next',
      org.containers.flatMap((c, i) =>
        CLASSES.map((cls, k) => {
          const n = c.numbering[cls];
          return [i * CLASSES.length + k + 1, c.id, cls, n.prefix, '', n.width, n.base + c.counts[cls] + 1].join('\t');
        }),
      ),
    ],
    workspaces: ['id, name, container_id, owner_id', org.workspaces.map((w) => [w.id, w.name, w.containerId, w.ownerId].join('\t'))],
    report_templates: [
      'id, name, container_id, description, qml, created_at, modified_at',
      org.reports.map((r) => [r.id, text(r.name), r.containerId, text(r.description), text(r.qml), at, at].join('\t')),
    ],
  };
  let bytes = 0;
  for (const [table, [columns, lines]] of Object.entries(rows)) {
    bytes += await copyInto(client, table, columns, lines.map((l) => l + '\n').join(''));
  }
  return bytes;
}

const round = (n: number) => Math.round(n * 10) / 10;
const secondsSince = (t: number) => round((performance.now() - t) / 1000);
