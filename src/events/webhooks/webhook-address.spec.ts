import type { LookupAddress, LookupOptions } from 'node:dns';
import { WebhookAddressPolicy, WebhookAddressRefusedError, type WebhookResolver } from './webhook-address.js';

/** The policy's lookup as a promise: the addresses given to `net`, or the error. */
function lookup(policy: WebhookAddressPolicy, host: string, options: LookupOptions) {
  return new Promise<string | LookupAddress[]>((resolve, reject) =>
    policy.lookup(host, options, (error, address) => (error ? reject(error) : resolve(address))),
  );
}

/** A resolver that answers from a table, so no test depends on the network's DNS. */
const fakeDns =
  (table: Record<string, string[]>): WebhookResolver =>
  (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }),
      );
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };

describe('the webhook address policy', () => {
  const open = new WebhookAddressPolicy([]);

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '11.0.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows the public address %s', (ip) => {
    expect(open.refusal(ip, ip)).toBeNull();
    expect(open.isAddressAllowed(ip, ip)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['169.254.0.1', 'a link-local address'],
    ['100.64.0.1', 'a shared (carrier-grade NAT) address'],
    ['100.100.100.200', 'a shared (carrier-grade NAT) address'],
    ['0.0.0.0', 'an unspecified ("this network") address'],
    ['0.1.2.3', 'an unspecified ("this network") address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['240.0.0.1', 'a reserved address'],
    ['192.0.0.8', 'an IETF protocol address'],
    ['192.0.2.1', 'a documentation address'],
    ['198.18.0.1', 'a benchmarking address'],
    ['::1', 'a loopback address'],
    ['::', 'the unspecified address'],
    ['fc00::1', 'a private (unique local) address'],
    ['fd00:ec2::254', 'a private (unique local) address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['fec0::1', 'a site-local address'],
    ['ff02::1', 'a multicast address'],
    ['2001:db8::1', 'a documentation address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'an IETF protocol address'],
    ['::127.0.0.1', 'a reserved address'],
    ['5f00::1', 'a reserved address'],
    ['100::1', 'a discard address'],
  ])('refuses %s: %s', (ip, kind) => {
    expect(open.refusal(ip, ip)).toBe(`${ip} is ${kind}, which EVENTS_WEBHOOK_ALLOW does not list`);
    expect(open.isAddressAllowed(ip, ip)).toBe(false);
  });

  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', '127.0.0.1', 'a loopback address'],
    ['::ffff:169.254.169.254', '169.254.169.254', 'a link-local address'],
    ['::ffff:a00:1', '10.0.0.1', 'a private address'],
    ['64:ff9b::a00:1', '10.0.0.1', 'a private address'],
    ['64:ff9b::7f00:1', '127.0.0.1', 'a loopback address'],
    ['2002:c0a8:101::1', '192.168.1.1', 'a private address'],
  ])('refuses %s, which stands for %s', (ip, inner, kind) => {
    expect(open.refusal(ip, ip)).toBe(
      `${ip}, ${inner} inside it, is ${kind}, which EVENTS_WEBHOOK_ALLOW does not list`,
    );
  });

  it('names the host an address belongs to, and refuses what is no address', () => {
    expect(open.refusal('10.0.0.7', 'hooks.example.com')).toBe(
      '10.0.0.7 (an address of hooks.example.com) is a private address, which EVENTS_WEBHOOK_ALLOW does not list',
    );
    expect(open.refusal('hooks.example.com', 'hooks.example.com')).toBe('hooks.example.com is not an IP address');
    expect(open.refusal('300.1.1.1', '')).toBe('300.1.1.1 is not an IP address');
  });

  it('allows listed addresses and ranges, and the IPv6 forms of listed IPv4 addresses', () => {
    const policy = new WebhookAddressPolicy(['127.0.0.1', '10.0.0.0/8', '[::1]', 'fd00::/8', '192.168.7.0/24']);
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1', '10.200.3.4', '64:ff9b::a00:1', '::1', 'fd12::1', '192.168.7.9'])
      expect([ip, policy.isAddressAllowed(ip, ip)]).toEqual([ip, true]);
    for (const ip of ['127.0.0.2', '192.168.8.1', 'fc00::1', '169.254.169.254', '::ffff:169.254.169.254', '172.16.0.1'])
      expect([ip, policy.isAddressAllowed(ip, ip)]).toEqual([ip, false]);
  });

  it('allows any address of a listed host name, or of a name below a listed *.domain', () => {
    const policy = new WebhookAddressPolicy(['hooks.internal', '*.corp.example']);
    expect(policy.isAddressAllowed('10.0.0.5', 'hooks.internal')).toBe(true);
    expect(policy.isAddressAllowed('10.0.0.5', 'Hooks.Internal.')).toBe(true);
    expect(policy.isAddressAllowed('10.0.0.5', 'a.corp.example')).toBe(true);
    expect(policy.isAddressAllowed('127.0.0.1', 'a.b.corp.example')).toBe(true);
    expect(policy.isAddressAllowed('10.0.0.5', 'corp.example')).toBe(false);
    expect(policy.isAddressAllowed('10.0.0.5', 'evilcorp.example')).toBe(false);
    expect(policy.isAddressAllowed('10.0.0.5', 'other.internal')).toBe(false);
    expect(policy.isAddressAllowed('10.0.0.5', 'hooks.internal.evil.example')).toBe(false);
    expect(policy.isAddressAllowed('8.8.8.8', 'other.internal')).toBe(true);
  });

  it.each(['10.0.0.0/33', '::1/129', '10.0.0.0/8/8', 'hooks/8', 'a b', 'http://x', '*'])(
    'refuses the allow-list entry %s',
    (entry) => {
      expect(() => new WebhookAddressPolicy([entry])).toThrow(`"${entry}" is not`);
    },
  );

  describe('checks URLs when subscriptions are made', () => {
    it.each([
      'https://hooks.example.com/events?x=1',
      'http://8.8.8.8:8080/',
      'https://[2606:4700:4700::1111]/hook',
      'http://internal.example/',
      'http://hooks.example.com./',
    ])('accepts %s', (url) => {
      expect(open.checkUrl(url)).toBeNull();
    });

    it.each([
      ['ftp://hooks.example.com/', 'a webhook URL starts with http:// or https://, not ftp://'],
      ['file:///etc/passwd', 'a webhook URL starts with http:// or https://, not file://'],
      ['javascript:alert(1)', 'a webhook URL starts with http:// or https://, not javascript://'],
      ['hooks.example.com/events', 'the webhook URL is not an absolute URL'],
      ['https://user:secret@hooks.example.com/', 'a webhook URL holds no user name or password'],
      ['https://user@hooks.example.com/', 'a webhook URL holds no user name or password'],
      ['http://./', 'a webhook URL names a host'],
      ['http://127.0.0.1:8080/', '127.0.0.1 is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list'],
      ['http://2130706433/', '127.0.0.1 is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list'],
      ['http://0x7f.1/', '127.0.0.1 is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list'],
      [
        'http://[::ffff:127.0.0.1]/',
        '::ffff:7f00:1, 127.0.0.1 inside it, is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list',
      ],
      [
        'http://169.254.169.254/latest/meta-data/',
        '169.254.169.254 is a link-local address, which EVENTS_WEBHOOK_ALLOW does not list',
      ],
      [
        'http://[fd00:ec2::254]/',
        'fd00:ec2::254 is a private (unique local) address, which EVENTS_WEBHOOK_ALLOW does not list',
      ],
      [
        'http://localhost:3000/',
        '127.0.0.1 (an address of localhost) is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list',
      ],
      [
        'http://api.localhost/',
        '127.0.0.1 (an address of api.localhost) is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list',
      ],
    ])('refuses %s', (url, message) => {
      expect(open.checkUrl(url)).toBe(message);
    });

    it('refuses URLs longer than 2000 characters', () => {
      expect(open.checkUrl('https://hooks.example.com/' + 'a'.repeat(1974))).toBeNull();
      expect(open.checkUrl('https://hooks.example.com/' + 'a'.repeat(1975))).toBe(
        'a webhook URL has at most 2000 characters',
      );
    });

    it('accepts loopback and private URLs the allow list names', () => {
      const policy = new WebhookAddressPolicy(['127.0.0.1', '10.0.0.0/8', 'localhost']);
      expect(policy.checkUrl('http://127.0.0.1:8080/')).toBeNull();
      expect(policy.checkUrl('http://10.1.1.1/')).toBeNull();
      expect(policy.checkUrl('http://localhost:3000/')).toBeNull();
      expect(policy.checkUrl('http://192.168.0.1/')).toBe(
        '192.168.0.1 is a private address, which EVENTS_WEBHOOK_ALLOW does not list',
      );
    });
  });

  describe('resolves host names for http.request', () => {
    it('refuses localhost, which resolves to a loopback address', async () => {
      const error = await lookup(open, 'localhost', { all: true }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookAddressRefusedError);
      expect(error).toMatchObject({ code: 'EWEBHOOKADDRESS', host: 'localhost' });
      expect((error as Error).message).toMatch(
        /^(127\.0\.0\.1|::1) \(an address of localhost\) is a loopback address, which EVENTS_WEBHOOK_ALLOW does not list$/,
      );
    });

    it('gives the addresses of localhost where loopback is listed, in the form net asked for', async () => {
      const policy = new WebhookAddressPolicy(['127.0.0.0/8', '::1']);
      const all = await lookup(policy, 'localhost', { all: true });
      expect(Array.isArray(all) && all.length > 0 && all.every((a) => ['127.0.0.1', '::1'].includes(a.address))).toBe(
        true,
      );
      expect(['127.0.0.1', '::1']).toContain(await lookup(policy, 'localhost', {}));
    });

    it('refuses a name when any of its addresses is not allowed', async () => {
      const dns = fakeDns({ 'rebind.example': ['93.184.215.14', '10.0.0.1'], 'public.example': ['93.184.215.14'] });
      const policy = new WebhookAddressPolicy([], dns);
      await expect(lookup(policy, 'rebind.example', { all: true })).rejects.toThrow(
        '10.0.0.1 (an address of rebind.example) is a private address, which EVENTS_WEBHOOK_ALLOW does not list',
      );
      await expect(lookup(policy, 'public.example', { all: true })).resolves.toEqual([
        { address: '93.184.215.14', family: 4 },
      ]);
      await expect(lookup(policy, 'public.example', {})).resolves.toBe('93.184.215.14');
    });

    it('allows every address of a listed name', async () => {
      const dns = fakeDns({ 'hooks.corp.example': ['10.0.0.1', 'fd00::1'] });
      const policy = new WebhookAddressPolicy(['*.corp.example'], dns);
      await expect(lookup(policy, 'hooks.corp.example', { all: true })).resolves.toEqual([
        { address: '10.0.0.1', family: 4 },
        { address: 'fd00::1', family: 6 },
      ]);
    });

    it('passes on a failed resolution, and treats no answer as one', async () => {
      const policy = new WebhookAddressPolicy([], fakeDns({ 'empty.example': [] }));
      await expect(lookup(policy, 'nowhere.example', { all: true })).rejects.toMatchObject({
        code: 'ENOTFOUND',
        message: 'getaddrinfo ENOTFOUND nowhere.example',
      });
      await expect(lookup(policy, 'empty.example', {})).rejects.toMatchObject({ code: 'ENOTFOUND' });
    });
  });
});
