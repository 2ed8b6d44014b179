import { Inject, Injectable } from '@nestjs/common';
import pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/** The channel of migration 20261125300000_auth_notices. */
export const AUTH_CHANNEL = 'pdm_auth';
/**
 * The channel of migration 20261128100000_change_events: a transaction committed change events.
 * Listened to on the same connection, so an instance holds one listening connection in all.
 */
export const EVENTS_CHANNEL = 'pdm_events';
/** The listening connection's application_name, to find it in pg_stat_activity. */
export const AUTH_NOTICES_APPLICATION = 'pdm-auth-notices';

/**
 * The statements of the connection AuthNotices listens on: a connection of its own to the
 * primary, outside every pool (a pooled one would stop listening when it went back).
 */
@Injectable()
export class AuthNoticesRepository {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A new connection, not yet connected, so the caller can attach its handlers first. */
  connection(): pg.Client {
    return new pg.Client({
      connectionString: this.config.databaseUrl,
      connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
      application_name: AUTH_NOTICES_APPLICATION,
      keepAlive: true,
    });
  }

  /** Connects and starts listening for the notices. */
  async listen(client: pg.Client): Promise<void> {
    await client.connect();
    await client.query(`LISTEN ${AUTH_CHANNEL}; LISTEN ${EVENTS_CHANNEL}`);
  }

  /** A trivial query: the connection still answers. */
  async ping(client: pg.Client): Promise<void> {
    await client.query('SELECT 1');
  }
}
