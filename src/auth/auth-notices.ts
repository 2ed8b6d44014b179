import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type pg from 'pg';
import { PeriodicTask } from '../common/periodic-task.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AuthNoticesRepository, EVENTS_CHANNEL } from './auth-notices.repository.js';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;
/**
 * How often the listening connection is asked a trivial query, and how long the answer may take:
 * a connection that died without a word (a network gone, not a server that said goodbye) would
 * otherwise pass for listening while its notices are lost.
 */
const HEARTBEAT_MS = 5_000;

export interface AuthNoticeHandlers {
  /** A user's row changed or went. */
  user(id: number): void;
  /** A failure count (key in hex) reached its limit; it holds until resetAt (ms since 1970). */
  throttled(key: string, resetAt: number): void;
  /** The listening connection was (re)established: notices sent before may have been missed. */
  resumed(): void;
  /** A personal access token's row was revoked, changed or deleted. */
  token?(id: number): void;
  /** Change events were committed (the events' delivery loops and long polls wake up). */
  changes?(): void;
}

/**
 * Listens on one connection of its own (to the primary, AuthNoticesRepository) for the notices of
 * migration 20261125300000_auth_notices: a user row changed, a sign-in failure count reached its limit
 * (and of 20261127200000_groups_and_tokens: a personal access token was revoked or changed).
 * While it listens, AuthService trusts its cached sign-ins without a statement per request;
 * while it does not (not started, connection lost, AUTH_NOTICES=false, the embedded database,
 * which serves one connection at a time), every cached sign-in is confirmed by a statement as
 * before. A lost connection is re-established with growing pauses (0.5 s up to 30 s); one that
 * stops answering (a heartbeat every 5 s, answered within 5 s) counts as lost.
 */
@Injectable()
export class AuthNotices implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AuthNotices');
  private client?: pg.Client;
  private readonly handlers: AuthNoticeHandlers[] = [];
  private listening = false;
  private stopped = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer?: NodeJS.Timeout;
  /** The listening connection's heartbeat, one per connection. */
  private heartbeat?: PeriodicTask;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connections: AuthNoticesRepository,
  ) {}

  /** True while notices are received: cached sign-ins may then be trusted. */
  get live(): boolean {
    return this.listening;
  }

  /** Adds a receiver of the notices (the password and the token sign-ins each have one). */
  subscribe(handlers: AuthNoticeHandlers): void {
    this.handlers.push(handlers);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.authNotices) return;
    await this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    // A heartbeat under way ends with the connection, rather than waiting for its answer.
    const heartbeat = this.heartbeat?.stop();
    this.listening = false;
    await this.client?.end().catch(() => undefined);
    await heartbeat;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = this.connections.connection();
    this.client = client;
    client.on('notification', (n) =>
      n.channel === EVENTS_CHANNEL ? this.handlers.forEach((h) => h.changes?.()) : this.receive(n.payload ?? ''),
    );
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await this.connections.listen(client);
    } catch (e) {
      this.logger.warn(`cannot listen for sign-in notices (${e instanceof Error ? e.message : String(e)})`);
      this.lost(client);
      return;
    }
    if (this.stopped || this.client !== client) return;
    this.retryMs = RETRY_MIN_MS;
    for (const h of this.handlers) h.resumed();
    this.listening = true;
    this.heartbeat = new PeriodicTask({
      name: 'the heartbeat of the connection listening for sign-in notices',
      intervalMs: HEARTBEAT_MS,
      run: () => this.beat(client),
      logger: this.logger,
    });
    this.heartbeat.start();
  }

  private async beat(client: pg.Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer')), HEARTBEAT_MS);
    });
    try {
      await Promise.race([this.connections.ping(client), late]);
    } catch {
      this.lost(client);
    } finally {
      clearTimeout(timer);
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    if (this.listening)
      this.logger.warn('lost the connection listening for sign-in notices: cached sign-ins are confirmed per request');
    this.client = undefined;
    this.listening = false;
    // Not waited for: lost() may be called by the heartbeat's own run.
    void this.heartbeat?.stop();
    this.heartbeat = undefined;
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  private receive(payload: string): void {
    if (payload.startsWith('u')) {
      const id = Number(payload.slice(1));
      if (Number.isSafeInteger(id)) for (const h of this.handlers) h.user(id);
    } else if (payload.startsWith('t')) {
      const [key, resetAt] = payload.slice(1).split(':');
      const at = Number(resetAt);
      if (key && Number.isFinite(at)) for (const h of this.handlers) h.throttled(key, at);
    } else if (payload.startsWith('k')) {
      const id = Number(payload.slice(1));
      if (Number.isSafeInteger(id)) for (const h of this.handlers) h.token?.(id);
    }
  }
}
