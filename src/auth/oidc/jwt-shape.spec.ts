import { looksLikeJwt } from './jwt-shape.js';

describe('looksLikeJwt', () => {
  it('takes compact JWS, also an unsigned one', () => {
    expect(looksLikeJwt('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln')).toBe(true);
    expect(looksLikeJwt('eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.')).toBe(true);
  });

  it('leaves other credentials alone', () => {
    expect(looksLikeJwt('opaque-token')).toBe(false);
    expect(looksLikeJwt('a.b')).toBe(false);
    expect(looksLikeJwt('a.b.c.d')).toBe(false);
    expect(looksLikeJwt('a.b+.c')).toBe(false);
  });
});
