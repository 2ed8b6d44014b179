import { Inject, Injectable } from '@nestjs/common';
import pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';

/**
 * First key of the session advisory locks of resumable uploads: (UPLOAD_LOCK, hashtext(id)).
 * Beside the other two-key locks of the service (74 510 query sessions, 74 520 creations of
 * uploads, 74 600 001… report slots, 'pdmw' walks of the stores), never one of them.
 */
const UPLOAD_LOCK = 74_530;

/** The channel on which a request waiting for an upload asks the instance holding it to let go. */
export const TUS_RELEASE_CHANNEL = 'pdm_tus_release';

/** The locking connection's application_name, to find it in pg_stat_activity. */
export const TUS_LOCKS_APPLICATION = 'pdm-tus-locks';

/** An answer this late counts as a lost connection (its locks may be gone with it). */
const QUERY_TIMEOUT_MS = 5_000;

/**
 * The statements of the connection that holds the locks of resumable uploads (TusPgLocker): a
 * connection of its own to the primary, outside every pool, one per instance however many
 * uploads it holds. A pooled one would go back with its session's locks, and one per held lock
 * would let uploads in progress take the whole pool.
 */
@Injectable()
export class TusLocksRepository {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A new connection, not yet connected, so the caller can attach its handlers first. */
  connection(): pg.Client {
    return new pg.Client({
      connectionString: this.config.databaseUrl,
      connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
      query_timeout: QUERY_TIMEOUT_MS,
      application_name: TUS_LOCKS_APPLICATION,
      keepAlive: true,
    });
  }

  /** Connects, listens for requests to let go of an upload; returns the connection's backend pid. */
  async open(client: pg.Client): Promise<number> {
    await client.connect();
    await client.query(`LISTEN ${TUS_RELEASE_CHANNEL}`);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return rows[0].pid;
  }

  /** Takes the upload's lock for the connection's session; false when another session holds it. */
  async tryLock(client: pg.ClientBase, id: string): Promise<boolean> {
    const { rows } = await client.query<{ ok: boolean }>({
      name: 'tus-lock',
      text: 'SELECT pg_try_advisory_lock($1::int4, hashtext($2)) AS ok',
      values: [UPLOAD_LOCK, id],
    });
    return rows[0].ok;
  }

  async unlock(client: pg.ClientBase, id: string): Promise<void> {
    await client.query({
      name: 'tus-unlock',
      text: 'SELECT pg_advisory_unlock($1::int4, hashtext($2))',
      values: [UPLOAD_LOCK, id],
    });
  }

  /** Asks whichever instance holds the upload's lock to end the request that holds it. */
  async askRelease(client: pg.ClientBase, id: string): Promise<void> {
    await client.query({
      name: 'tus-ask-release',
      text: 'SELECT pg_notify($1, $2)',
      values: [TUS_RELEASE_CHANNEL, id],
    });
  }
}
