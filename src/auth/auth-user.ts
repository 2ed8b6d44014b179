/** The authenticated caller, attached to every request by the auth guard. */
export interface AuthUser {
  id: number;
  name: string;
  admin: boolean;
  fullName: string | null;
  email: string | null;
  /** How the caller proved who they are: a password, a personal access token, an identity provider's token. */
  via?: 'basic' | 'token' | 'oidc';
}
