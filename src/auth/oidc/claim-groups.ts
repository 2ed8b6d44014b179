/**
 * Takes a user's group memberships from a token's groups claim: `source` is the issuer, so that
 * memberships from one issuer are replaced only by that issuer's claims. GroupsModule binds its
 * GroupsService (OidcGroups.bind); until then nothing is done with the groups.
 */
export interface ClaimGroupsSync {
  syncClaimGroups(userId: number, source: string, groupNames: string[]): Promise<void>;
}

/** The default: group claims are read and checked, but not kept. */
export const NO_CLAIM_GROUPS_SYNC: ClaimGroupsSync = {
  syncClaimGroups: () => Promise.resolve(),
};
