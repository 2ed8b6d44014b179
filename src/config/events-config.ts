import { bool, intIn, text, type ConfigSpec } from './config-parsers.js';

/** Change events: the pull feed, subscriptions, webhooks and the message broker (docs/events.md). */
export interface EventsConfig {
  /** This instance runs delivery loops (another instance may do it alone). */
  eventsDelivery: boolean;
  /**
   * Hosts and networks webhooks may call besides public addresses: host names (`hooks.example.com`,
   * `*.corp.example`), addresses and CIDR ranges (`10.0.0.0/8`, `127.0.0.1`); empty: public
   * addresses only (never loopback, private, link-local or other special ranges).
   */
  eventsWebhookAllow: string[];
  /** Longest one webhook call may take (connect, send, answer). */
  eventsWebhookTimeoutMs: number;
  /** Attempts of one event before it goes to the subscription's dead letters. */
  eventsMaxAttempts: number;
  /** Backoff before the 2nd attempt; doubled each time with jitter, up to eventsRetryMaxMs. */
  eventsRetryBaseMs: number;
  eventsRetryMaxMs: number;
  /** Delivered events stay in the feed at least this long (hours). */
  eventsRetentionHours: number;
  /** Subscriptions one user may own. */
  eventsSubscriptionLimit: number;
  /** The CloudEvents `source` of every event. */
  eventsSource: string;
  /** How often an instance looks for undelivered events without a notice (ms). */
  eventsPollMs: number;
  /** How long an instance holds a subscription's delivery without renewing it (ms). */
  eventsLeaseMs: number;
  /** Subscriptions one instance delivers at once. */
  eventsConcurrency: number;
  /**
   * Requests in flight (averaged over about a second) from which the instance is busy and delivery
   * yields to the requests: one subscription at a time, resting between turns (eventsBusyShare); 0: never.
   */
  eventsBusyRequests: number;
  /** While the instance is busy: the share of the time (percent) delivery runs. */
  eventsBusyShare: number;
  /** Long polls (`GET /events?wait=`) one user may hold open on one instance. */
  eventsFeedWaitsPerUser: number;
  /** NATS server(s) for subscriptions delivering to NATS JetStream; empty: none. */
  eventsNatsUrl: string;
  /** The JetStream stream events are published to (created when missing, on subjects `<root>.>`). */
  eventsNatsStream: string;
  /** The first token of every NATS subject and AMQP routing key events are published on. */
  eventsSubjectRoot: string;
  /** AMQP 0-9-1 broker (RabbitMQ) for subscriptions delivering to AMQP: `amqp://user:password@host/vhost`; empty: none. */
  eventsAmqpUrl: string;
  /** The topic exchange events are published to (declared durable when missing), routing key as the NATS subject. */
  eventsAmqpExchange: string;
}

export const EVENTS_SPEC: ConfigSpec<EventsConfig> = {
  eventsDelivery: ['EVENTS_DELIVERY', 'true', bool],
  eventsWebhookAllow: ['EVENTS_WEBHOOK_ALLOW', '', hostList],
  eventsWebhookTimeoutMs: ['EVENTS_WEBHOOK_TIMEOUT_MS', '10000', intIn(100, 600_000)],
  eventsMaxAttempts: ['EVENTS_MAX_ATTEMPTS', '8', intIn(1, 100)],
  eventsRetryBaseMs: ['EVENTS_RETRY_BASE_MS', '1000', intIn(1, 3_600_000)],
  eventsRetryMaxMs: ['EVENTS_RETRY_MAX_MS', '300000', intIn(1, 86_400_000)],
  eventsRetentionHours: ['EVENTS_RETENTION_HOURS', '168', intIn(0, 87_600)],
  eventsSubscriptionLimit: ['EVENTS_SUBSCRIPTION_LIMIT', '50', intIn(1, 100_000)],
  eventsSource: ['EVENTS_SOURCE', 'urn:pdm-services', eventSource],
  eventsPollMs: ['EVENTS_POLL_MS', '1000', intIn(10, 600_000)],
  eventsLeaseMs: ['EVENTS_LEASE_MS', '15000', intIn(1000, 600_000)],
  eventsConcurrency: ['EVENTS_CONCURRENCY', '8', intIn(1, 1000)],
  eventsBusyRequests: ['EVENTS_BUSY_REQUESTS', '2', intIn(0, 100_000)],
  eventsBusyShare: ['EVENTS_BUSY_SHARE', '25', intIn(1, 100)],
  eventsFeedWaitsPerUser: ['EVENTS_FEED_WAITS_PER_USER', '4', intIn(0, 10_000)],
  eventsNatsUrl: ['EVENTS_NATS_URL', '', text],
  eventsNatsStream: ['EVENTS_NATS_STREAM', 'PDM_EVENTS', natsName],
  eventsSubjectRoot: ['EVENTS_SUBJECT_ROOT', 'pdm', natsToken],
  eventsAmqpUrl: ['EVENTS_AMQP_URL', '', amqpUrl],
  eventsAmqpExchange: ['EVENTS_AMQP_EXCHANGE', 'pdm.events', amqpExchange],
};

/** Comma-separated host names, wildcards `*.domain`, addresses and CIDR ranges. */
function hostList(raw: string): string[] {
  const items = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const item of items) {
    if (!/^(\*\.)?[a-z0-9.:_-]+(\/\d{1,3})?$/.test(item) && !/^\[[0-9a-f:.]+\](\/\d{1,3})?$/.test(item))
      throw new Error(`"${item}" is not a host name, address or CIDR range`);
  }
  return items;
}

function eventSource(raw: string): string {
  const s = raw.trim();
  if (!s || s.length > 200 || /\s/.test(s))
    throw new Error(`"${raw}" is not a URI reference (no spaces, 1–200 characters)`);
  return s;
}

function natsName(raw: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw.trim()))
    throw new Error(`"${raw}" is not a stream name (letters, digits, _ and -)`);
  return raw.trim();
}

function natsToken(raw: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw.trim()))
    throw new Error(`"${raw}" is not a subject token (letters, digits, _ and -)`);
  return raw.trim();
}

function amqpUrl(raw: string): string {
  const s = raw.trim();
  if (s && !/^amqps?:\/\/\S+$/.test(s)) throw new Error('is not an amqp:// or amqps:// URL');
  return s;
}

function amqpExchange(raw: string): string {
  // AMQP 0-9-1's exchange-name rule, without the default exchange (empty) and the broker's own `amq.` ones.
  const s = raw.trim();
  if (!/^[A-Za-z0-9_.:-]{1,127}$/.test(s) || s.startsWith('amq.'))
    throw new Error(`"${raw}" is not an exchange name (letters, digits, _ - . and :, not starting with amq.)`);
  return s;
}
