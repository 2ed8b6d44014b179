import { Webhook } from 'standardwebhooks';
import { checkWebhookSecret, newWebhookSecret } from './webhook-secret.js';

const secretOf = (bytes: number) => 'whsec_' + Buffer.alloc(bytes, 7).toString('base64');

describe('webhook secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes, different each time', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
    expect(checkWebhookSecret(a)).toBeNull();
  });

  it('sign and verify with the Standard Webhooks library', () => {
    const secret = newWebhookSecret();
    const timestamp = new Date();
    const signature = new Webhook(secret).sign('42', timestamp, '{"a":1}');
    const headers = {
      'webhook-id': '42',
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(new Webhook(secret).verify('{"a":1}', headers)).toEqual({ a: 1 });
    expect(() => new Webhook(newWebhookSecret()).verify('{"a":1}', headers)).toThrow('No matching signature found');
  });

  it('hold 24 to 64 bytes', () => {
    expect(checkWebhookSecret(secretOf(24))).toBeNull();
    expect(checkWebhookSecret(secretOf(64))).toBeNull();
    expect(checkWebhookSecret(secretOf(23))).toBe('a webhook secret holds 24 to 64 bytes, not 23');
    expect(checkWebhookSecret(secretOf(65))).toBe('a webhook secret holds 24 to 64 bytes, not 65');
  });

  it.each([
    ['no prefix', Buffer.alloc(32).toString('base64'), 'a webhook secret starts with "whsec_"'],
    ['another prefix', 'whsek_' + Buffer.alloc(32).toString('base64'), 'a webhook secret starts with "whsec_"'],
    ['nothing after the prefix', 'whsec_', 'base64'],
    ['URL-safe base64', 'whsec_' + Buffer.alloc(32, 0xfb).toString('base64url') + '=', 'base64'],
    ['no padding', 'whsec_' + Buffer.alloc(32).toString('base64').replace(/=+$/, ''), 'base64'],
    ['spaces', 'whsec_ ' + Buffer.alloc(32).toString('base64'), 'base64'],
  ])('are refused with %s', (_case, secret, message) => {
    expect(checkWebhookSecret(secret)).toContain(message);
  });
});
