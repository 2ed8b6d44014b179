/** The authenticated caller, attached to every request by the auth guard. */
export interface AuthUser {
  id: number;
  name: string;
  admin: boolean;
  fullName: string | null;
  email: string | null;
}
