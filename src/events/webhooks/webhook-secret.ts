import { randomBytes } from 'node:crypto';

/** The prefix Standard Webhooks gives secrets, so they are recognised as such where they leak. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The secret lengths Standard Webhooks allows (bytes, after base64 decoding). */
export const WEBHOOK_SECRET_MIN_BYTES = 24;
export const WEBHOOK_SECRET_MAX_BYTES = 64;

/**
 * Standard base64 with padding, nothing looser: the signing library fails on URL-safe base64, and
 * takes a secret without the prefix as base64 whole, so a mistyped prefix would sign with another key.
 */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Why `secret` cannot sign webhooks, or null when it can. */
export function checkWebhookSecret(secret: string): string | null {
  if (typeof secret !== 'string' || !secret.startsWith(WEBHOOK_SECRET_PREFIX))
    return `a webhook secret starts with "${WEBHOOK_SECRET_PREFIX}"`;
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!encoded || !BASE64.test(encoded))
    return `a webhook secret is "${WEBHOOK_SECRET_PREFIX}" followed by base64 (A–Z, a–z, 0–9, + and /, padded with =)`;
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < WEBHOOK_SECRET_MIN_BYTES || bytes > WEBHOOK_SECRET_MAX_BYTES)
    return `a webhook secret holds ${WEBHOOK_SECRET_MIN_BYTES} to ${WEBHOOK_SECRET_MAX_BYTES} bytes, not ${bytes}`;
  return null;
}
