/**
 * What the administration accepts as names, in one place, so the DTOs and their Swagger
 * descriptions say the same thing. Names are identifiers users type into URLs and sign-in
 * dialogs: bounded in length, free of control characters and of leading or trailing spaces.
 */

/** User names: letters, digits and . _ @ - (no ':' as HTTP Basic splits at it), 1 to 64 characters. */
export const USER_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._@-]{0,63}$/u;
export const USER_NAME_RULE = '1 to 64 letters, digits or . _ @ -, starting with a letter or digit';

/** Container and workspace names: printable text without control characters, trimmed, 1 to 200 characters. */
export const DISPLAY_NAME = /^(?=\S)[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\]{1,200}(?<=\S)$/u;
export const DISPLAY_NAME_RULE =
  '1 to 200 printable characters, no control characters, no / or \\, no leading or trailing space';

/** Content roles: upper-case letters, digits and _, 1 to 40 characters, starting with a letter. */
export const ROLE_NAME = /^[A-Z][A-Z0-9_]{0,39}$/;
export const ROLE_NAME_RULE = '1 to 40 upper-case letters, digits or _, starting with a letter';

/** Prefix and suffix of numbering rules: up to 20 letters, digits or . _ - / . */
export const AFFIX = /^[A-Za-z0-9._/-]{0,20}$/;
export const AFFIX_RULE = 'up to 20 letters, digits or . _ - /';

/** Widest counter: 10^18 still fits PostgreSQL's bigint. */
export const MAX_WIDTH = 18;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const TEXT_MAX = 2000;
export const FULL_NAME_MAX = 200;
export const EMAIL_MAX = 254;
