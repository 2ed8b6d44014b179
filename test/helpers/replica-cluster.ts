import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { seedDemoData } from '../../src/import/demo-seed.js';
import { applyMigrations } from '../../src/prisma/migrate.js';

const run = promisify(execFile);

/**
 * A PostgreSQL primary with a streaming replica made by `pg_basebackup -R`, both on this machine
 * in a temporary folder, for tests of reads on a replica.
 *
 * The primary is a cluster of the test's own (initdb, migrated, loaded with the demo data), not
 * the run's test server: a replica of that one needs replication connections, which packaged
 * servers refuse by default (pg_hba.conf has no `replication` line for TCP, and the test server
 * here has none), and its configuration files, which packages keep outside the data folder. A
 * test cannot change a server's configuration; its own cluster it configures as it needs.
 */
export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops applying the primary's changes on the replica (they still arrive). */
  pauseReplay(): Promise<void>;
  /** Applies them again and waits until the replica shows everything committed on the primary. */
  catchUp(): Promise<void>;
  /** Stops the replica's server (it stays stopped). */
  stopReplica(): Promise<void>;
  /**
   * Stops the replica's processes (its postmaster and every process it started) with SIGSTOP: a
   * hung server, whose connections stay open and whose port still accepts, but that answers
   * nothing. Undo it with thawReplica (stop() does too).
   */
  freezeReplica(): void;
  /** Lets the processes freezeReplica stopped run again (SIGCONT). */
  thawReplica(): void;
  stop(): Promise<void>;
}

/** The folder of the PostgreSQL server binaries, or null when they are not installed. */
export function postgresBinaries(): string | null {
  const candidates = [process.env.PG_BINDIR ?? ''];
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    for (const v of readdirSync(root).sort((a, b) => Number(b) - Number(a))) candidates.push(join(root, v, 'bin'));
  }
  return (
    candidates.find((dir) => dir && ['initdb', 'pg_ctl', 'pg_basebackup'].every((b) => existsSync(join(dir, b)))) ??
    null
  );
}

/** The server refuses to run as root: as root, the binaries run as the postgres user. */
const asRoot = userInfo().uid === 0;

async function pgBin(bin: string, tool: string, args: string[]): Promise<string> {
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
    : [join(bin, tool), args];
  const { stdout } = await run(cmd, argv, { timeout: 120_000 });
  return stdout;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The server options every cluster of this helper starts with. */
const serverOptions = (port: number, socketDir: string) =>
  `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on`;

export async function startReplicaPair(bin: string): Promise<ReplicaPair> {
  const dir = mkdtempSync(join(tmpdir(), 'pdm-replica-'));
  if (asRoot) chownSync(dir, idOf('postgres', 3), idOf('postgres', 4));
  const started: string[] = [];
  const frozen: number[] = [];
  const thaw = () => {
    for (const pid of frozen.splice(0)) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone meanwhile
      }
    }
  };
  const stop = async () => {
    thaw();
    for (const data of started.reverse()) {
      await pgBin(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const primaryData = join(dir, 'primary');
    const replicaData = join(dir, 'replica');
    const primaryPort = await freePort();
    await pgBin(bin, 'initdb', ['-D', primaryData, '-U', 'postgres', '--auth=trust', '--no-sync']);
    appendFileSync(join(primaryData, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
    await pgBin(bin, 'pg_ctl', [
      '-D',
      primaryData,
      '-l',
      join(dir, 'primary.log'),
      '-w',
      '-o',
      serverOptions(primaryPort, dir),
      'start',
    ]);
    started.push(primaryData);
    const admin = `postgresql://postgres@127.0.0.1:${primaryPort}/postgres`;
    await query(admin, 'CREATE DATABASE pdm_replica_test');
    const primaryUrl = withDatabase(admin, 'pdm_replica_test');
    await applyMigrations(primaryUrl);
    await seedDemoData(primaryUrl);
    await pgBin(bin, 'pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaData,
      '-R',
      '-X',
      'stream',
      // A checkpoint at once, not spread over minutes.
      '-c',
      'fast',
    ]);

    const replicaPort = await freePort();
    await pgBin(bin, 'pg_ctl', [
      '-D',
      replicaData,
      '-l',
      join(dir, 'replica.log'),
      '-w',
      '-o',
      serverOptions(replicaPort, dir),
      'start',
    ]);
    started.push(replicaData);
    const replicaUrl = withDatabase(`postgresql://postgres@127.0.0.1:${replicaPort}/postgres`, 'pdm_replica_test');
    const [{ recovery }] = await query<{ recovery: boolean }>(replicaUrl, 'SELECT pg_is_in_recovery() AS recovery');
    if (!recovery) throw new Error('the copy did not start as a replica');

    const pair: ReplicaPair = {
      primaryUrl,
      replicaUrl,
      pauseReplay: async () => {
        await query(replicaUrl, 'SELECT pg_wal_replay_pause()');
      },
      catchUp: async () => {
        await query(replicaUrl, 'SELECT pg_wal_replay_resume()');
        const [{ lsn }] = await query<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
        for (;;) {
          const [{ done }] = await query<{ done: boolean }>(
            replicaUrl,
            'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
            [lsn],
          );
          if (done) return;
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      stopReplica: async () => {
        await pgBin(bin, 'pg_ctl', ['-D', replicaData, '-m', 'fast', '-w', 'stop']);
        started.splice(started.indexOf(replicaData), 1);
      },
      freezeReplica: () => {
        // The postmaster first, so that it starts nothing new, then everything it started.
        const postmaster = Number(readFileSync(join(replicaData, 'postmaster.pid'), 'utf8').split('\n')[0]);
        for (const pid of [postmaster, ...childrenOf(postmaster)]) {
          process.kill(pid, 'SIGSTOP');
          frozen.push(pid);
        }
      },
      thawReplica: thaw,
      stop,
    };
    await pair.catchUp();
    return pair;
  } catch (e) {
    await stop();
    throw e;
  }
}

/** The processes whose parent is `pid` (from /proc: Linux only, as PostgreSQL's packages here are). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) out.push(Number(entry));
  }
  return out;
}

/** The uid (field 3) or gid (field 4) of a user in /etc/passwd. */
function idOf(user: string, field: number): number {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no user ${user} to run PostgreSQL as`);
  return Number(line.split(':')[field - 1]);
}
