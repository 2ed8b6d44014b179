import { isIP } from 'node:net';
import { LOG_LEVELS, type LogLevel } from '../common/logger.js';

/** Reads one variable's text; throws an Error whose message says what is wrong with it. */
export type Parser<T> = (raw: string) => T;

/** Per configuration field: the variable's name, its default and how it is read. */
export type ConfigSpec<C> = { [K in keyof C]: [string, string, Parser<C[K]>] };

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** "10mb", "512kb", "1048576" → bytes. */
export function parseSize(raw: string): number {
  const m = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  if (!m) throw new Error(`"${raw}" is not a size (use e.g. 1048576, 512kb, 10mb)`);
  const n = Number(m[1]) * SIZE_UNITS[(m[2] ?? 'b').toLowerCase()];
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`"${raw}" is not a positive size`);
  return n;
}

/** A size of at most `max` bytes. */
export function sizeUpTo(max: number): Parser<number> {
  return (raw) => {
    const n = parseSize(raw);
    if (n > max) throw new Error(`"${raw}" is more than ${max / 1024 ** 2} MiB`);
    return n;
  };
}

/** Like parseSize, but 0 is allowed (it turns the feature off). */
export function sizeOrZero(raw: string): number {
  return /^0+\s*(b|kb|mb|gb)?$/i.test(raw.trim()) ? 0 : parseSize(raw);
}

export function intIn(min: number, max: number): Parser<number> {
  return (raw) => {
    if (!/^\d+$/.test(raw.trim())) throw new Error(`"${raw}" is not an integer`);
    const n = Number(raw);
    if (n < min || n > max) throw new Error(`${n} is not between ${min} and ${max}`);
    return n;
  };
}

/** An integer in [min, max], or null when empty (the default is then derived from other settings). */
export function optionalIntIn(min: number, max: number): Parser<number | null> {
  const parse = intIn(min, max);
  return (raw) => (raw.trim() === '' ? null : parse(raw));
}

export const text: Parser<string> = (raw) => raw.trim();

export function bool(raw: string): boolean {
  const v = raw.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new Error(`"${raw}" is not true or false`);
}

export function optionalBool(raw: string): boolean | null {
  return raw.trim() === '' ? null : bool(raw);
}

export function logLevel(raw: string): LogLevel {
  const v = raw.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(v))
    throw new Error(`"${raw}" is not one of ${LOG_LEVELS.join(', ')}`);
  return v as LogLevel;
}

export function basePath(raw: string): string {
  const p = raw.trim().replace(/\/+$/, '');
  if (p === '') return '';
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(p)) throw new Error(`"${raw}" is not a path like /pdm`);
  return p;
}

/** Where clients of the original gateway find it, unless GATEWAY_BASE_PATH says otherwise. */
export const DEFAULT_GATEWAY_BASE_PATH = '/Windchill/servlet/nexiles/tools';

/**
 * GATEWAY_BASE_PATH: a path like /Windchill/servlet/nexiles/tools (segments of letters, digits
 * and `._~-`, none empty, `.` or `..`; no trailing slash), or empty or `off` for no gateway
 * addresses ('').
 */
export function gatewayBasePath(raw: string): string {
  const p = raw.trim();
  if (p === '' || p.toLowerCase() === 'off') return '';
  if (!p.startsWith('/'))
    throw new Error(`"${raw}" does not start with / (e.g. ${DEFAULT_GATEWAY_BASE_PATH}; off: none)`);
  if (p.endsWith('/')) throw new Error(`"${raw}" ends with / (write it without: e.g. ${DEFAULT_GATEWAY_BASE_PATH})`);
  const bad = p
    .slice(1)
    .split('/')
    .find((s) => s === '' || s === '.' || s === '..' || !/^[A-Za-z0-9._~-]+$/.test(s));
  if (bad !== undefined) {
    throw new Error(`"${raw}" has the segment "${bad}": segments are letters, digits and . _ ~ - (not empty, . or ..)`);
  }
  return p;
}

export function databaseUrl(raw: string): string {
  const v = raw.trim();
  if (v === '') return '';
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new Error('is not a URL (postgresql://user:password@host:5432/database)');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new Error('must start with postgresql://');
  }
  return v;
}

const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

export function trustProxy(raw: string): false | number | string[] {
  const v = raw.trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) throw new Error(`${v} hops: at most 10`);
    return hops;
  }
  const entries = v.split(',').map((e) => e.trim());
  for (const e of entries) {
    const [address, bits, extra] = e.split('/');
    const subnetOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
    if (!PROXY_RANGES.includes(e) && (extra !== undefined || !isIP(address) || !subnetOk)) {
      throw new Error(
        `"${e}" is not a number of hops, an address, a subnet (10.0.0.0/8), loopback, linklocal or uniquelocal`,
      );
    }
  }
  return entries;
}

export function optionalHttpUrl(raw: string): string {
  const v = raw.trim();
  if (v !== '') publicUrl(v);
  return v;
}

export function publicUrl(raw: string): string {
  const v = raw.trim().replace(/\/+$/, '');
  if (v === '') return '';
  try {
    const url = new URL(v);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    throw new Error('is not an http(s) URL');
  }
  return v;
}
