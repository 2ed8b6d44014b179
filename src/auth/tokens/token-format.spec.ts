import {
  checksum,
  hasValidChecksum,
  newToken,
  TOKEN_LENGTH,
  TOKEN_PATTERN,
  tokenHash,
  tokenHint,
} from './token-format.js';

describe('personal access token format', () => {
  it('is the prefix, 43 random base62 characters and a 6-character checksum', () => {
    const t = newToken();
    expect(t).toMatch(/^pdm_pat_[0-9A-Za-z]{49}$/);
    expect(t).toHaveLength(TOKEN_LENGTH);
    expect(TOKEN_PATTERN.test(`leaked: ${t} in a log`)).toBe(true);
    expect(hasValidChecksum(t)).toBe(true);
  });

  it('draws new randomness every time', () => {
    const seen = new Set(Array.from({ length: 200 }, () => newToken()));
    expect(seen.size).toBe(200);
  });

  it('carries over 256 bits of randomness', () => {
    expect(43 * Math.log2(62)).toBeGreaterThan(256);
  });

  it('has a CRC32 checksum a scanner can verify offline', () => {
    // CRC32("pdm_pat_") = 0x6d8c1cdc would do too; the check is against zlib's CRC32 in base62.
    const body = 'pdm_pat_' + 'a'.repeat(43);
    const token = body + checksum(body);
    expect(hasValidChecksum(token)).toBe(true);
    expect(checksum(body)).toMatch(/^[0-9A-Za-z]{6}$/);
  });

  it.each([
    ['one character changed', (t: string) => t.slice(0, 10) + (t[10] === 'A' ? 'B' : 'A') + t.slice(11)],
    ['checksum changed', (t: string) => t.slice(0, -1) + (t.endsWith('0') ? '1' : '0')],
    ['too short', (t: string) => t.slice(0, -1)],
    ['other prefix', (t: string) => 'pdm_xyz_' + t.slice(8)],
    ['not base62', (t: string) => t.slice(0, 20) + '-' + t.slice(21)],
  ])('refuses a token with %s', (_, change) => {
    expect(hasValidChecksum(change(newToken()))).toBe(false);
  });

  it('stores SHA-256 of the whole token and shows its last 4 characters', () => {
    const t = newToken();
    expect(tokenHash(t)).toHaveLength(32);
    expect(tokenHash(t).equals(tokenHash(t))).toBe(true);
    expect(tokenHint(t)).toBe(t.slice(-4));
  });
});
