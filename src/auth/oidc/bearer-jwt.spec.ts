import { bearerJwt } from './bearer-jwt.js';

describe('bearerJwt', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln';

  it('takes the JWT of a bearer header, also an unsigned one', () => {
    expect(bearerJwt(`Bearer ${jwt}`)).toBe(jwt);
    expect(bearerJwt(`bearer  ${jwt}`)).toBe(jwt);
    expect(bearerJwt('Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.')).toBe('eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.');
  });

  it('leaves Basic, personal access tokens and other bearer tokens alone', () => {
    expect(bearerJwt(undefined)).toBeUndefined();
    expect(bearerJwt('Basic YTpi')).toBeUndefined();
    expect(bearerJwt('Bearer pdm_pat_abc.def.ghi')).toBeUndefined();
    expect(bearerJwt('Bearer opaque-token')).toBeUndefined();
    expect(bearerJwt('Bearer a.b')).toBeUndefined();
    expect(bearerJwt(`Bearer ${jwt} extra`)).toBeUndefined();
    expect(bearerJwt(`Bearer${jwt}`)).toBeUndefined();
  });
});
