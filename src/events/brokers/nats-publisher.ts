import {
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type StreamInfo,
} from '@nats-io/jetstream';
import {
  connect,
  headers,
  InvalidArgumentError,
  InvalidSubjectError,
  nanos,
  NoRespondersError,
  TimeoutError,
  type NatsConnection,
} from '@nats-io/transport-node';
import type { CloudEvent, DeliveryOutcome } from '../cloud-event.js';
import { streamCovers } from './broker-subjects.js';

export { checkSubject, subjectFor } from './broker-subjects.js';

export interface NatsPublisherOptions {
  /** EVENTS_NATS_URL: one server or several, comma-separated (`nats://a:4222,nats://b:4222`). */
  servers: string;
  /** EVENTS_NATS_STREAM. */
  stream: string;
  /** EVENTS_SUBJECT_ROOT. */
  subjectRoot: string;
  /** Longest wait for the connection, a JetStream API answer or one publish's acknowledgement. */
  timeoutMs: number;
}

/** How long the stream remembers a message id to drop a second copy (the stream's duplicate window). */
export const DUPLICATE_WINDOW_MS = 120_000;

export const CLOUDEVENTS_CONTENT_TYPE = 'application/cloudevents+json';

/** JetStream's error code for a message larger than the stream accepts (JSStreamMessageExceedsMaximumErr). */
const MESSAGE_TOO_LARGE = 10054;

/**
 * Publishes change events to a NATS JetStream stream, in CloudEvents structured mode: the whole
 * event as the JSON payload, `Content-Type: application/cloudevents+json`. An event counts as
 * delivered once JetStream acknowledges it (the PubAck says the stream stored it), never on the
 * plain send. One instance serves every NATS subscription of the service.
 */
export class NatsPublisher {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    readonly stream: string,
    readonly subjectRoot: string,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Connects (reconnecting without end after a loss, so a broker restart does not need a service
   * restart) and makes sure the stream exists: created when missing on `<root>.>` with file storage
   * and a duplicate window of DUPLICATE_WINDOW_MS; an existing stream is kept as it is but must store
   * `<root>.>`. Fails with a message naming the servers (without credentials) and the cause.
   */
  static async connect(opts: NatsPublisherOptions): Promise<NatsPublisher> {
    const servers = opts.servers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (servers.length === 0) throw new Error('no NATS server given (EVENTS_NATS_URL is empty)');
    let nc: NatsConnection;
    try {
      nc = await connect({
        servers,
        name: 'pdm-services events',
        timeout: opts.timeoutMs,
        reconnect: true,
        maxReconnectAttempts: -1,
      });
    } catch (err) {
      throw new Error(`cannot connect to NATS at ${withoutCredentials(servers)}: ${messageOf(err)}`, { cause: err });
    }
    try {
      const jsm = await jetstreamManager(nc, { timeout: opts.timeoutMs });
      await ensureStream(jsm, opts.stream, opts.subjectRoot);
      return new NatsPublisher(nc, jsm.jetstream(), opts.stream, opts.subjectRoot, opts.timeoutMs);
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw new Error(`NATS at ${withoutCredentials(servers)}: ${messageOf(err)}`, { cause: err });
    }
  }

  /**
   * Publishes `event` on `subject` (see subjectFor) and waits for JetStream's acknowledgement.
   * Never throws: every failure is an outcome (natsOutcome).
   */
  async publish(subject: string, event: CloudEvent): Promise<DeliveryOutcome> {
    const h = headers();
    h.set('Content-Type', CLOUDEVENTS_CONTENT_TYPE);
    try {
      // The message id is the event's id and the subject, not the event's id alone: one stream serves
      // every subscription, and two subscriptions that receive the same event on different subjects
      // publish two messages with the same event id. Deduplicated by event id, the second
      // subscription's copy would be dropped as a duplicate of the first; by id and subject, only a
      // second attempt of the same delivery (a retry after a lost acknowledgement) is.
      await this.js.publish(subject, JSON.stringify(event), {
        msgID: `${event.id}:${subject}`,
        headers: h,
        timeout: this.timeoutMs,
        // Stored in our stream or not at all.
        expect: { streamName: this.stream },
      });
      // A PubAck with `duplicate: true` means the stream already holds this message (an earlier
      // attempt whose acknowledgement was lost): delivered as well.
      return { kind: 'delivered' };
    } catch (err) {
      return natsOutcome(err, subject, this.stream);
    }
  }

  /** Finishes what is in flight, then closes the connection; a connection that does not drain in time is closed. */
  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.timeoutMs);
    });
    try {
      await Promise.race([this.nc.drain(), gaveUp]);
    } catch {
      // Draining fails on a connection that is already closing: closing below is what is left.
    } finally {
      clearTimeout(timer);
    }
    if (!this.nc.isClosed()) await this.nc.close();
  }
}

/**
 * What a failed publish comes to. `rejected` only for faults of the message itself (larger than
 * the server or stream takes, a subject that is not one): publishing it again cannot succeed.
 * Everything else is `retry`: a lost connection, a timeout, no stream on the subject (deleted or
 * not yet recreated), JetStream unavailable, a permission an operator has not granted yet; each is
 * fixed on the broker without changing the event, and the attempts limit still ends a hopeless one.
 */
export function natsOutcome(err: unknown, subject: string, stream: string): DeliveryOutcome {
  const chain = causes(err);
  if (chain.some((e) => e instanceof NoRespondersError)) {
    // The client calls this "jetstream is not enabled"; on a server with JetStream it means no
    // stream listens on the subject.
    return {
      kind: 'retry',
      error: `no JetStream stream stores "${subject}" (is the stream "${stream}" deleted, or JetStream down?)`,
    };
  }
  if (chain.some((e) => e instanceof TimeoutError))
    return { kind: 'retry', error: `no acknowledgement from JetStream for "${subject}" in time` };
  const api = chain.find((e): e is JetStreamApiError => e instanceof JetStreamApiError);
  if (api) {
    const error = `JetStream refused "${subject}": ${api.message} (code ${api.code})`;
    if (api.code === MESSAGE_TOO_LARGE) return { kind: 'rejected', error };
    if (api.code === JetStreamApiCodes.StreamNotFound)
      return { kind: 'retry', error: `the stream "${stream}" does not exist: ${api.message}` };
    return { kind: 'retry', error };
  }
  if (chain.some((e) => e instanceof InvalidArgumentError || e instanceof InvalidSubjectError))
    return { kind: 'rejected', error: `cannot publish on "${subject}": ${messageOf(err)}` };
  return { kind: 'retry', error: `publishing on "${subject}" failed: ${messageOf(err)}` };
}

async function ensureStream(jsm: JetStreamManager, stream: string, root: string): Promise<void> {
  const wanted = `${root}.>`;
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(stream);
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound)) throw err;
    try {
      await jsm.streams.add({
        name: stream,
        subjects: [wanted],
        storage: StorageType.File,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      });
      return;
    } catch (addErr) {
      // Another instance may have created it in the meantime (then it is checked below); else the
      // server's reason, such as subjects that overlap another stream's, is the message.
      info = await jsm.streams.info(stream).catch(() => {
        throw new Error(`the JetStream stream "${stream}" on "${wanted}" cannot be created: ${messageOf(addErr)}`, {
          cause: addErr,
        });
      });
    }
  }
  const subjects = info.config.subjects ?? [];
  if (!streamCovers(subjects, root)) {
    throw new Error(
      `the JetStream stream "${stream}" exists but stores ${subjects.length ? subjects.map((s) => `"${s}"`).join(', ') : 'no subjects'}, ` +
        `not every subject under "${wanted}": add "${wanted}" to its subjects, or set EVENTS_NATS_STREAM and ` +
        `EVENTS_SUBJECT_ROOT to a stream and root that match`,
    );
  }
}

/** The error and its causes, outermost first. */
function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = err; e !== undefined && chain.length < 10; e = e instanceof Error ? e.cause : undefined) chain.push(e);
  return chain;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The server list for a message: `nats://user:secret@host` becomes `nats://***@host`. */
function withoutCredentials(servers: string[]): string {
  return servers.map((s) => s.replace(/\/\/[^@/]*@/, '//***@')).join(', ');
}
