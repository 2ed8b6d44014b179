import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { CloudEvent, DeliveryOutcome } from '../cloud-event.js';
import { WebhookAddressRefusedError, urlHost, type WebhookAddressPolicy } from './webhook-address.js';

export interface WebhookSenderOptions {
  /** Which addresses may be called (EVENTS_WEBHOOK_ALLOW). */
  policy: WebhookAddressPolicy;
  /** The longest one call may take, from connecting to the answer's last byte (EVENTS_WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  userAgent?: string;
}

/** How much of an answer is read; receivers are told to answer 2xx quickly, the body means nothing. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Delivers one CloudEvent to one webhook: a signed POST (Standard Webhooks), classified into the
 * outcome the delivery loop acts on. Built on node:http rather than fetch because fetch cannot be
 * told which addresses it may connect to; here the policy's lookup resolves every name, so the
 * address checked is the address connected to. Redirects are not followed: a redirect to an
 * internal address would get around the check, and a receiver that moved should say so by a new
 * subscription.
 */
export class WebhookSender {
  private readonly policy: WebhookAddressPolicy;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  // One pool of connections per sender: events to one receiver come in bursts.
  private readonly httpAgent = new http.Agent({ keepAlive: true });
  private readonly httpsAgent = new https.Agent({ keepAlive: true });

  constructor(options: WebhookSenderOptions) {
    this.policy = options.policy;
    this.timeoutMs = options.timeoutMs;
    this.userAgent = options.userAgent ?? 'pdm-services-webhooks';
  }

  /** One attempt to deliver `event` to `url`, signed with `secret` (`whsec_…`). Never throws. */
  async send(url: string, secret: string, event: CloudEvent): Promise<DeliveryOutcome> {
    try {
      const refused = this.policy.checkUrl(url);
      if (refused) return { kind: 'rejected', error: refused };
      const body = JSON.stringify(event);
      const timestamp = new Date();
      let signature: string;
      try {
        signature = new Webhook(secret).sign(event.id, timestamp, body);
      } catch (e) {
        return { kind: 'rejected', error: `the subscription's secret cannot sign: ${errorText(e)}` };
      }
      return await this.post(new URL(url), body, {
        'content-type': 'application/cloudevents+json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': this.userAgent,
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      });
    } catch (e) {
      return { kind: 'retry', error: errorText(e) };
    }
  }

  /** Closes the pooled connections (at shutdown). */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private post(url: URL, body: string, headers: http.OutgoingHttpHeaders): Promise<DeliveryOutcome> {
    const host = urlHost(url);
    const secure = url.protocol === 'https:';
    return new Promise<DeliveryOutcome>((resolve) => {
      const request = (secure ? https : http).request({
        method: 'POST',
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: url.pathname + url.search,
        headers,
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: this.policy.lookup,
      });
      // One timer for the whole call: connecting, sending, the answer's headers and its body.
      const timer = setTimeout(() => {
        settle({ kind: 'retry', error: `timed out after ${this.timeoutMs} ms` });
        request.destroy();
      }, this.timeoutMs);
      let settled = false;
      const settle = (outcome: DeliveryOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      request.on('error', (e) => settle(failure(e)));
      // A literal address is never looked up, and a pooled socket was connected for an earlier
      // call: the address actually connected to is checked once more. 'socket' comes before the
      // request is written, and this 'connect' listener before the one that writes it, so a
      // refused address receives nothing.
      request.on('socket', (socket: Socket) => {
        const check = () => {
          const ip = socket.remoteAddress;
          const why = ip ? this.policy.refusal(ip, host) : null;
          if (ip && why) request.destroy(new WebhookAddressRefusedError(ip, host, why));
        };
        if (socket.connecting) socket.once('connect', check);
        else check();
      });
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_ANSWER_BYTES) {
            settle(classify(status, response.headers.location));
            response.destroy();
          }
        });
        response.on('end', () => settle(classify(status, response.headers.location)));
        response.on('error', (e) => settle(failure(e)));
        response.on('close', () => {
          if (!response.complete) settle({ kind: 'retry', error: 'the connection closed during the answer' });
        });
      });
      request.end(body);
    });
  }
}

/** What an answer's status means for the event. */
export function classify(status: number, location?: string): DeliveryOutcome {
  const text = `${status} ${http.STATUS_CODES[status] ?? ''}`.trim();
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 410) return { kind: 'gone', error: `the receiver answered ${text}`, status };
  if (status >= 500 || status === 429) return { kind: 'retry', error: `the receiver answered ${text}`, status };
  if (status >= 300 && status < 400) {
    const to = location ? ` to ${clip(location)}` : '';
    return { kind: 'rejected', error: `the receiver answered ${text}${to}; redirects are not followed`, status };
  }
  return { kind: 'rejected', error: `the receiver answered ${text}`, status };
}

/** A failed call: refused by the policy for good, anything else (network, DNS, TLS) tried again. */
function failure(e: unknown): DeliveryOutcome {
  if (e instanceof WebhookAddressRefusedError) return { kind: 'rejected', error: e.message };
  return { kind: 'retry', error: errorText(e) };
}

/** An error's message, told apart by shape: errors from node's internals may come from another realm (vm contexts). */
function errorText(e: unknown): string {
  if (typeof e !== 'object' || e === null) return clip(String(e));
  const { message, code, errors } = e as { message?: unknown; code?: unknown; errors?: unknown };
  if (typeof message === 'string' && message) return clip(message);
  // Node reports a name with several addresses, none reachable, as one error per address.
  if (Array.isArray(errors) && errors.length) return clip(errors.map(errorText).join('; '));
  return clip(typeof code === 'string' ? code : String(e));
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
