import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Which addresses webhooks may call. A subscriber chooses the URL, so without this check anyone
 * allowed to subscribe could make the service call its own loopback, the private network or the
 * cloud metadata service (169.254.169.254) and read the answers in the delivery log. Public
 * unicast addresses are allowed; every special-purpose range (IANA's registries) is refused
 * unless EVENTS_WEBHOOK_ALLOW lists the address, a range holding it, or the host name called.
 *
 * Host names are checked where they are resolved: `lookup` is given to `http.request`, so the
 * address checked is the address connected to, and a name that resolves to a public address
 * when the subscription is made and to 127.0.0.1 afterwards (DNS rebinding) is still refused.
 */

/** Ranges a webhook never calls unless the allow list names them, first match names the refusal. */
const SPECIAL_IPV4: [string, string[]][] = [
  ['an unspecified ("this network") address', ['0.0.0.0/8']],
  ['a loopback address', ['127.0.0.0/8']],
  ['a private address', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['a shared (carrier-grade NAT) address', ['100.64.0.0/10']],
  ['a link-local address', ['169.254.0.0/16']],
  ['an IETF protocol address', ['192.0.0.0/24']],
  ['a documentation address', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24']],
  ['a 6to4 relay address', ['192.88.99.0/24']],
  ['a benchmarking address', ['198.18.0.0/15']],
  ['a multicast address', ['224.0.0.0/4']],
  ['the broadcast address', ['255.255.255.255/32']],
  ['a reserved address', ['240.0.0.0/4']],
];
const SPECIAL_IPV6: [string, string[]][] = [
  ['the unspecified address', ['::/128']],
  ['a loopback address', ['::1/128']],
  ['a private (unique local) address', ['fc00::/7', '64:ff9b:1::/48']],
  ['a link-local address', ['fe80::/10']],
  ['a site-local address', ['fec0::/10']],
  ['a multicast address', ['ff00::/8']],
  ['a documentation address', ['2001:db8::/32', '3fff::/20']],
  ['an IETF protocol address', ['2001::/23']],
  ['a discard address', ['100::/64']],
];
/** IPv6 unicast is this prefix; everything else is reserved. */
const GLOBAL_UNICAST = blockList([['2000::/3']]);

const SPECIAL_LISTS = [...SPECIAL_IPV4, ...SPECIAL_IPV6].map(([kind, ranges]) => ({ kind, list: blockList([ranges]) }));

/** Names that always mean this machine (RFC 6761), refused as early as the subscription. */
const LOCALHOST = /^(.+\.)?localhost$/;

const MAX_URL_LENGTH = 2000;

/** What the policy refused: the lookup's error, so the sender can tell it from a network error. */
export class WebhookAddressRefusedError extends Error {
  readonly code = 'EWEBHOOKADDRESS';
  constructor(
    readonly address: string,
    readonly host: string,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookAddressRefusedError';
  }
}

/** Every address of a name (`dns.lookup` with `all`), given the options `net` asks with. */
export type WebhookResolver = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

const resolveAll: WebhookResolver = (hostname, options) =>
  dns.lookup(hostname, { family: options.family, hints: options.hints, all: true });

export class WebhookAddressPolicy {
  private readonly allowedAddresses = new BlockList();
  private readonly allowedNames = new Set<string>();
  /** `*.corp.example` kept as `.corp.example`: any name below it, not the domain itself. */
  private readonly allowedSuffixes: string[] = [];

  /**
   * @param allow EVENTS_WEBHOOK_ALLOW: host names, `*.domain`, addresses (IPv6 bare or in
   *   brackets) and CIDR ranges. Throws on an entry that is none of these.
   * @param resolve How host names become addresses; `dns.lookup` unless a test says otherwise.
   */
  constructor(
    allow: readonly string[],
    private readonly resolve: WebhookResolver = resolveAll,
  ) {
    for (const raw of allow) this.add(raw);
  }

  /**
   * Why a subscription may not use `url`, or null. A literal address is checked now; a host
   * name when it is called (its addresses may change), except the names of this machine.
   */
  checkUrl(url: string): string | null {
    if (typeof url !== 'string' || url.length > MAX_URL_LENGTH)
      return `a webhook URL has at most ${MAX_URL_LENGTH} characters`;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'the webhook URL is not an absolute URL';
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      return `a webhook URL starts with http:// or https://, not ${parsed.protocol}//`;
    // Credentials in a URL end up in logs; the signature is how a receiver knows the caller.
    if (parsed.username || parsed.password) return 'a webhook URL holds no user name or password';
    const host = urlHost(parsed);
    if (!normalName(host)) return 'a webhook URL names a host';
    if (isIP(host)) return this.refusal(host, host);
    if (LOCALHOST.test(normalName(host)) && !this.isHostListed(host)) return this.refusal('127.0.0.1', host);
    return null;
  }

  /** Whether a webhook to `host` may connect to `ip` (one of `host`'s addresses, or `host` itself). */
  isAddressAllowed(ip: string, host: string): boolean {
    return this.refusal(ip, host) === null;
  }

  /** Why a webhook to `host` may not connect to `ip`, or null when it may. */
  refusal(ip: string, host: string): string | null {
    const address = parseAddress(ip);
    const who = host && normalName(host) !== normalName(ip) ? `${ip} (an address of ${host})` : ip;
    if (!address) return `${who} is not an IP address`;
    if (this.isHostListed(host)) return null;
    if (this.isListed(address)) return null;
    const kind = specialKind(address);
    if (!kind) return null;
    const inner = address.embedded ? `, ${address.embedded} inside it,` : '';
    return `${who}${inner} is ${kind}, which EVENTS_WEBHOOK_ALLOW does not list`;
  }

  /** Whether the allow list names `host` itself or a domain above it (`*.domain`). */
  isHostListed(host: string): boolean {
    const name = normalName(host);
    if (!name) return false;
    return this.allowedNames.has(name) || this.allowedSuffixes.some((s) => name.endsWith(s) && name.length > s.length);
  }

  /**
   * For the `lookup` option of `http.request`: every address of the name, refused as a whole
   * when any of them is not allowed. A name with both kinds of address is either misconfigured
   * or an attempt to get past the check, and a clear failure is easier to act on than a
   * delivery that works on some attempts only.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.addressesOf(hostname, options).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };

  private async addressesOf(hostname: string, options: LookupOptions): Promise<LookupAddress[]> {
    const addresses = await this.resolve(hostname, options);
    if (!addresses.length)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    for (const { address } of addresses) {
      const why = this.refusal(address, hostname);
      if (why) throw new WebhookAddressRefusedError(address, hostname, why);
    }
    return addresses;
  }

  private isListed(address: Address): boolean {
    return (
      this.allowedAddresses.check(address.ip, address.family) ||
      (!!address.embedded && this.allowedAddresses.check(address.embedded, 'ipv4'))
    );
  }

  private add(raw: string): void {
    const item = raw.trim().toLowerCase();
    if (!item) return;
    const [first, prefix, ...rest] = item.split('/');
    const ip = first.startsWith('[') && first.endsWith(']') ? first.slice(1, -1) : first;
    const family = isIP(ip);
    if (family && prefix === undefined) {
      this.allowedAddresses.addAddress(ip, family === 4 ? 'ipv4' : 'ipv6');
    } else if (family && !rest.length && /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)) {
      this.allowedAddresses.addSubnet(ip, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    } else if (prefix !== undefined || family) {
      throw new Error(`"${raw}" is not a CIDR range`);
    } else if (/^\*(\.[a-z0-9_-]+)+\.?$/.test(item)) {
      this.allowedSuffixes.push(normalName(item.slice(1)));
    } else if (/^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(item)) {
      this.allowedNames.add(normalName(item));
    } else {
      throw new Error(`"${raw}" is not a host name, *.domain, address or CIDR range`);
    }
  }
}

/** The host of a URL as `net` wants it: IPv6 without brackets. */
export function urlHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Lower case, no brackets, no root dot: `Example.COM.` and `example.com` are one name. */
function normalName(host: string): string {
  let name = host.toLowerCase();
  if (name.startsWith('[') && name.endsWith(']')) name = name.slice(1, -1);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

interface Address {
  /** Without a zone (`%eth0`). */
  ip: string;
  family: 'ipv4' | 'ipv6';
  /** The IPv4 address an IPv6 one stands for (IPv4-mapped, NAT64, 6to4): where it really goes. */
  embedded?: string;
}

function parseAddress(text: string): Address | null {
  const ip = text.split('%')[0];
  const family = isIP(ip);
  if (family === 4) return { ip, family: 'ipv4' };
  if (family !== 6) return null;
  const g = ipv6Groups(ip);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  let embedded: string | undefined;
  if (zeros(0, 5) && g[5] === 0xffff)
    embedded = v4(g[6], g[7]); // ::ffff:0:0/96
  else if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6))
    embedded = v4(g[6], g[7]); // NAT64 64:ff9b::/96
  else if (g[0] === 0x2002) embedded = v4(g[1], g[2]); // 6to4 2002::/16
  return { ip, family: 'ipv6', embedded };
}

/** The eight 16-bit groups of a valid IPv6 address (`isIP` has said it is one). */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return groups.map((x) => parseInt(x, 16));
}

/** What special-purpose range `address` (or the IPv4 address inside it) is in, or null when public. */
function specialKind(address: Address): string | null {
  const target = address.embedded ? { ip: address.embedded, family: 'ipv4' as const } : address;
  for (const { kind, list } of SPECIAL_LISTS) if (list.check(target.ip, target.family)) return kind;
  if (target.family === 'ipv6' && !GLOBAL_UNICAST.check(target.ip, 'ipv6')) return 'a reserved address';
  return null;
}

function blockList(groups: string[][]): BlockList {
  const list = new BlockList();
  for (const range of groups.flat()) {
    const [ip, prefix] = range.split('/');
    list.addSubnet(ip, Number(prefix), isIP(ip) === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}
