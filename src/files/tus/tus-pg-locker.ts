import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import type { Lock, Locker, RequestRelease } from '@tus/utils';
import type pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { TUS_RELEASE_CHANNEL, TusLocksRepository } from './tus-locks.repository.js';

/** How long a request waits for its upload's lock, how often it tries, how often it asks again. */
export interface TusLockTiming {
  timeoutMs: number;
  pollMs: number;
  askEveryMs: number;
}

/** Token of a TusLockTiming replacing the defaults (tests). */
export const TUS_LOCK_TIMING = Symbol('TusLockTiming');

/**
 * How long a request waits for its upload at most. The tus server ends a holder that is asked to
 * let go after its lockDrainTimeout (3 s), keeping the part it was writing: a waiter gets its turn
 * well within this, unless the holder is stuck.
 */
export const TUS_LOCK_TIMEOUT_MS = 10_000;

const DEFAULT_TIMING: TusLockTiming = { timeoutMs: TUS_LOCK_TIMEOUT_MS, pollMs: 50, askEveryMs: 1_000 };

/** An error the tus server answers with its status_code and body, as it does its own (@tus/utils ERRORS). */
export class TusLockError extends Error {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {
    super(body);
  }
}

/** The connection that holds this instance's locks, and its backend (to know its own notices). */
interface Session {
  client: pg.Client;
  ready: Promise<void>;
  pid: number;
  lost: boolean;
}

/** The request holding an upload on this instance (or waiting for its database lock). */
export interface Holder {
  requestRelease: RequestRelease;
  /** The session whose database lock it holds; undefined before it has it and once that is lost. */
  session?: Session;
  /** Resolves once it has let go. */
  gone: Promise<void>;
  letGo: () => void;
}

/**
 * The tus server's locker: requests for one upload take turns, on one instance and across
 * instances sharing the database. The lock of an upload is a PostgreSQL session advisory lock,
 * and every lock of this instance is held by one connection of its own (TusLocksRepository),
 * so uploads in progress cost one connection, never the pool's. On this instance the requests
 * of an upload first take turns in memory, as the tus server's MemoryLocker has them (advisory
 * locks are re-entrant within a session: two requests on the same connection would both get it).
 *
 * As with the MemoryLocker, a request that finds its upload held asks the holder to let go (the
 * tus server then ends the holder's request after its lockDrainTimeout, keeping what it has
 * written): on this instance directly, on another by a notice on TUS_RELEASE_CHANNEL, which every
 * instance listens to on its locking connection. It waits, trying the lock every `pollMs`, at
 * most `timeoutMs`: then it is answered 423 (Locked), which tus clients retry.
 *
 * If the locking connection is lost, its locks are gone: the requests holding them are asked to
 * let go, and the next lock opens a new connection. On the embedded database, which serves one
 * connection at a time and one instance, the requests take turns in memory only.
 */
@Injectable()
export class TusPgLocker implements Locker, OnModuleDestroy {
  private readonly logger = new Logger('TusLocks');
  private readonly timing: TusLockTiming;
  private readonly holders = new Map<string, Holder>();
  private readonly inMemoryOnly: boolean;
  private session?: Session;
  private stopped = false;

  constructor(
    private readonly locks: TusLocksRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() @Inject(TUS_LOCK_TIMING) timing?: Partial<TusLockTiming>,
  ) {
    this.timing = { ...DEFAULT_TIMING, ...timing };
    this.inMemoryOnly = config.embeddedDatabase;
  }

  newLock(id: string): Lock {
    return new TusPgLock(this, id);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    const session = this.session;
    this.session = undefined;
    if (session) {
      session.lost = true;
      await session.client.end().catch(() => undefined);
    }
  }

  /** Takes the upload for a request: first on this instance, then in the database. */
  async acquire(id: string, requestRelease: RequestRelease, stop: AbortSignal): Promise<Holder> {
    for (;;) {
      const current = this.holders.get(id);
      if (!current) break;
      await ask(current);
      await settledOrStopped(current.gone, stop);
      if (stop.aborted) throw this.timedOut(id);
    }
    let letGo!: () => void;
    const gone = new Promise<void>((resolve) => (letGo = resolve));
    const holder: Holder = { requestRelease, gone, letGo };
    this.holders.set(id, holder);
    if (this.inMemoryOnly) return holder;
    try {
      holder.session = await this.takeInDatabase(id, stop);
      return holder;
    } catch (e) {
      this.holders.delete(id);
      letGo();
      throw e;
    }
  }

  /** Lets go of the upload: the database lock first, then the next request on this instance may go. */
  async release(id: string, holder: Holder): Promise<void> {
    const session = holder.session;
    holder.session = undefined;
    try {
      if (session && !session.lost) await this.locks.unlock(session.client, id);
    } catch (e) {
      // Ending the connection lets go of its locks: this one's, and those of the requests that
      // are now asked to let go as well.
      if (session) this.lose(session, e);
    } finally {
      if (this.holders.get(id) === holder) this.holders.delete(id);
      holder.letGo();
    }
  }

  /**
   * Tries the database lock until it has it or `stop` ends the wait, asking the holder to let
   * go at once and then every `askEveryMs`. A connection that fails is replaced once.
   */
  private async takeInDatabase(id: string, stop: AbortSignal): Promise<Session> {
    let askedAt = -Infinity;
    let failures = 0;
    for (;;) {
      if (stop.aborted) throw this.timedOut(id);
      let session: Session | undefined;
      try {
        session = await this.connected();
        if (await this.locks.tryLock(session.client, id)) {
          if (!session.lost) return session;
        } else if (Date.now() - askedAt >= this.timing.askEveryMs) {
          askedAt = Date.now();
          await this.locks.askRelease(session.client, id);
        }
      } catch (e) {
        if (session) this.lose(session, e);
        else this.logger.warn(`cannot open the connection holding the locks of uploads: ${messageOf(e)}`);
        if (++failures > 1 || this.stopped) {
          throw new TusLockError(503, `the database cannot be reached to lock upload ${id}; try again later`);
        }
        continue;
      }
      await delay(this.timing.pollMs, stop);
    }
  }

  /** The locking connection, opened when first needed. */
  private async connected(): Promise<Session> {
    if (this.stopped) throw new Error('the service is stopping');
    if (!this.session) {
      const client = this.locks.connection();
      const session: Session = { client, ready: Promise.resolve(), pid: 0, lost: false };
      client.on('notification', (n) => {
        if (n.channel !== TUS_RELEASE_CHANNEL || n.processId === session.pid || !n.payload) return;
        const holder = this.holders.get(n.payload);
        if (holder?.session === session) void ask(holder);
      });
      client.on('error', (e) => this.lose(session, e));
      client.on('end', () => this.lose(session, new Error('the connection ended')));
      session.ready = this.locks.open(client).then(
        (pid) => {
          session.pid = pid;
        },
        (e: unknown) => {
          if (this.session === session) this.session = undefined;
          session.lost = true;
          void client.end().catch(() => undefined);
          throw e;
        },
      );
      this.session = session;
    }
    const session = this.session;
    await session.ready;
    return session;
  }

  /** The locking connection failed: its locks are gone, so the requests that held them are asked to let go. */
  private lose(session: Session, e: unknown): void {
    if (this.session === session) this.session = undefined;
    if (session.lost) return;
    session.lost = true;
    void session.client.end().catch(() => undefined);
    if (this.stopped) return;
    let held = 0;
    for (const holder of this.holders.values()) {
      if (holder.session !== session) continue;
      holder.session = undefined;
      held++;
      void ask(holder);
    }
    this.logger.warn(
      `lost the connection holding the locks of uploads (${messageOf(e)})` +
        (held ? `: the ${held} requests that held one are ended` : ''),
    );
  }

  private timedOut(id: string): TusLockError {
    return new TusLockError(
      423,
      `upload ${id} is in use by another request that did not let go within ${this.timing.timeoutMs} ms; ` +
        'try again (HEAD tells where to resume)',
    );
  }

  /** The wait of one request: its own abort or the timeout, whichever comes first. */
  stopSignal(signal: AbortSignal): AbortSignal {
    return AbortSignal.any([signal, AbortSignal.timeout(this.timing.timeoutMs)]);
  }
}

/** One request's lock of one upload, as the tus server takes and gives it back. */
class TusPgLock implements Lock {
  private holder?: Holder;

  constructor(
    private readonly locker: TusPgLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    this.holder = await this.locker.acquire(this.id, requestRelease, this.locker.stopSignal(signal));
  }

  async unlock(): Promise<void> {
    const holder = this.holder;
    this.holder = undefined;
    if (holder) await this.locker.release(this.id, holder);
  }
}

/** Asks a holder to let go (the tus server's cancel of its request: never fails, called again harmlessly). */
async function ask(holder: Holder): Promise<void> {
  try {
    await holder.requestRelease();
  } catch {
    // Nothing to do: the holder lets go when its request ends.
  }
}

function settledOrStopped(promise: Promise<void>, stop: AbortSignal): Promise<void> {
  if (stop.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      stop.removeEventListener('abort', done);
      resolve();
    };
    stop.addEventListener('abort', done, { once: true });
    void promise.then(done);
  });
}

function delay(ms: number, stop: AbortSignal): Promise<void> {
  return settledOrStopped(new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), stop);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
