/** What a personal access token allows: each level includes the ones before it. */
export type TokenScope = 'read' | 'write' | 'admin';
export const TOKEN_SCOPES: readonly TokenScope[] = ['read', 'write', 'admin'];

/** The authenticated caller, attached to every request by the auth guard. */
export interface AuthUser {
  id: number;
  name: string;
  /** An administrator signed in with rights of one: false for a token without the `admin` scope. */
  admin: boolean;
  fullName: string | null;
  email: string | null;
  /** How the caller signed in (absent: with a password, HTTP Basic). */
  via?: 'basic' | 'token' | 'oidc';
  /** The personal access token the caller signed in with. */
  tokenId?: number;
  /** The token's scopes (expanded: `write` includes `read`); absent: the user's own rights. */
  scopes?: readonly TokenScope[];
}

/** Whether the caller may write at all: false for a token without the `write` scope. */
export function canWriteAtAll(user: AuthUser): boolean {
  return !user.scopes || user.scopes.includes('write');
}
