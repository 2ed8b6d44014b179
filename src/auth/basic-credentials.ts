/** Credentials from an `Authorization: Basic …` header, or null when it is missing or malformed. */
export interface BasicCredentials {
  name: string;
  password: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseBasicAuth(header: string | undefined): BasicCredentials | null {
  if (!header || header.length > 4096) return null;
  const m = /^Basic +(\S+)\s*$/i.exec(header);
  if (!m || !BASE64.test(m[1]) || m[1].length % 4 !== 0) return null;
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(m[1], 'base64'));
  } catch {
    return null;
  }
  // RFC 7617: the user id cannot contain ':'; the password may.
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const name = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (/[\u0000-\u001f\u007f]/.test(name)) return null;
  // scrypt keys its HMAC with the password, and HMAC pads short keys with zero bytes, so
  // "pw" and "pw\0" would hash alike: a NUL is refused rather than matched (RFC 7617 forbids it).
  if (password.includes('\u0000')) return null;
  return { name: name.normalize('NFC'), password };
}
