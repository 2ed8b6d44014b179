/** A JWS in compact form: three base64url parts (the signature may be empty, as with `alg: none`). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Whether a bearer credential has the shape of a JWT (and so goes to the identity providers' check). */
export function looksLikeJwt(credential: string): boolean {
  return COMPACT_JWS.test(credential);
}
