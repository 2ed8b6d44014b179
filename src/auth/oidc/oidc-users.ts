import { Injectable } from '@nestjs/common';
import type { JWTPayload } from 'jose';
import { OidClass } from '../../catalog/standard-classes.js';
import { isUniqueViolation } from '../../common/database-errors.js';
import type { OidcIssuerConfig } from '../../config/oidc-config.js';
import { NO_PASSWORD_HASH } from '../password.js';
import { UsersRepository, type UserRecord } from '../users.repository.js';
import { invalidToken, shown } from './oidc-errors.js';

/** User names as the administration accepts them (admin/admin-names.ts): the claim must be one. */
const USER_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._@-]{0,63}$/u;
const FULL_NAME_MAX = 200;
const EMAIL_MAX = 254;

/**
 * The user a verified token names: the issuer's user claim is the user's name here. A user not
 * known yet is created from the token's claims when the issuer allows it (with a password hash
 * no password verifies against: such users sign in through their issuer only).
 */
@Injectable()
export class OidcUsers {
  constructor(private readonly users: UsersRepository) {}

  /** The claim's user name, or the 401 saying what is wrong with it. */
  static userName(issuer: OidcIssuerConfig, payload: JWTPayload): string {
    const value = payload[issuer.userClaim];
    if (typeof value !== 'string' || value === '')
      throw invalidToken(`the token has no "${issuer.userClaim}" claim naming the user`);
    if (!USER_NAME.test(value)) {
      throw invalidToken(
        `the token's "${issuer.userClaim}" claim "${shown(value)}" is not a user name here (1 to 64 letters, digits or . _ @ -)`,
      );
    }
    return value;
  }

  async resolve(issuer: OidcIssuerConfig, payload: JWTPayload): Promise<UserRecord> {
    const name = OidcUsers.userName(issuer, payload);
    const record = (await this.users.findByName(name)) ?? (await this.create(issuer, name, payload));
    if (record.disabled) throw invalidToken(`user ${name} is disabled here`);
    return record;
  }

  private async create(issuer: OidcIssuerConfig, name: string, payload: JWTPayload): Promise<UserRecord> {
    if (!issuer.createUsers) {
      throw invalidToken(
        `user ${name} from ${issuer.issuer} is not known here; an administrator must create them or the issuer must allow creating users`,
      );
    }
    const fullName = claimText(payload.name, FULL_NAME_MAX);
    const email = claimText(payload.email, EMAIL_MAX);
    try {
      await this.users.create(
        { name, passwordHash: NO_PASSWORD_HASH, fullName, email, admin: false, disabled: false },
        (created) => ({
          userId: created.id,
          action: 'auth.user.create',
          objectClass: OidClass.user,
          objectId: created.id,
          objectNumber: created.name,
          detail: { issuer: issuer.issuer, after: { name, fullName, email } },
        }),
      );
    } catch (e) {
      // Another request of the same user created them first: theirs is the row.
      if (!isUniqueViolation(e)) throw e;
    }
    const record = await this.users.findByName(name);
    if (!record) throw invalidToken(`user ${name} could not be created here`);
    return record;
  }
}

function claimText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  return v === '' ? null : v.slice(0, max);
}
