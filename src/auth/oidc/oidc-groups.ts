import { Injectable, Logger } from '@nestjs/common';
import type { JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import type { OidcIssuerConfig } from '../../config/oidc-config.js';
import { NO_CLAIM_GROUPS_SYNC, type ClaimGroupsSync } from './claim-groups.js';
import { invalidToken, providerUnavailable } from './oidc-errors.js';

/** (user, issuer) pairs whose last group list is remembered at most. */
const SEEN_MAX = 10_000;
const GROUP_NAME_MAX = 200;

/**
 * Hands the groups a token lists to ClaimGroupsSync, but only when they differ from the ones last
 * handed over for that user and issuer on this instance, so steady traffic writes nothing. The
 * group module binds its service at start (bind()): the auth module cannot import the group
 * module, which imports it.
 */
@Injectable()
export class OidcGroups {
  private readonly logger = new Logger('OidcGroups');
  private readonly seen = new LRUCache<string, string>({ max: SEEN_MAX });
  private sync: ClaimGroupsSync = NO_CLAIM_GROUPS_SYNC;

  /** Where the groups of tokens go from now on. */
  bind(sync: ClaimGroupsSync): void {
    this.sync = sync;
    this.seen.clear();
  }

  async update(userId: number, issuer: OidcIssuerConfig, payload: JWTPayload): Promise<void> {
    if (!issuer.groupsClaim) return;
    const names = groupNames(issuer.groupsClaim, payload[issuer.groupsClaim]);
    const key = `${userId}\u0000${issuer.issuer}`;
    const signature = JSON.stringify(names);
    if (this.seen.get(key) === signature) return;
    try {
      await this.sync.syncClaimGroups(userId, issuer.issuer, names);
    } catch (e) {
      this.logger.warn(`group memberships of user ${userId} from ${issuer.issuer}: ${(e as Error).message}`);
      // Signing in with memberships the issuer has taken away is worse than not signing in.
      throw providerUnavailable('the group memberships the token lists could not be recorded; try again');
    }
    this.seen.set(key, signature);
  }

  /** The user's memberships are read from their next token again (their row changed). */
  forgetUser(userId: number): void {
    for (const key of this.seen.keys()) if (key.startsWith(`${userId}\u0000`)) this.seen.delete(key);
  }
}

/** The claim's group names, distinct and sorted; a missing claim is no groups. */
function groupNames(claim: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (
    !Array.isArray(list) ||
    !list.every((g): g is string => typeof g === 'string' && g !== '' && g.length <= GROUP_NAME_MAX)
  ) {
    throw invalidToken(`the token's "${claim}" claim is not a list of group names`);
  }
  return [...new Set(list)].sort();
}
