/**
 * The limits of groups and the rules of the names an OpenID Connect groups claim gives, in one
 * place so the DTOs, the service and docs/admin.md say the same thing. Plain code, no database.
 */

/** Group names: printable text without control characters, trimmed, 1 to 200 characters. Unlike
 * container names they may hold `/`: identity providers name groups by their path (`/eng/cad`). */
export const GROUP_NAME = /^(?=\S)[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]{1,200}(?<=\S)$/u;
export const GROUP_NAME_RULE = '1 to 200 printable characters, no control characters, no leading or trailing space';
export const GROUP_NAME_MAX = 200;

/** Groups in all: past it a new group is refused (409). */
export const GROUPS_MAX = 10_000;

/**
 * The longest chain of nested groups, counted in groups (A contains B contains C: 3). Each
 * permission change recomputes the users under the group changed, through every level.
 */
export const NESTING_DEPTH_MAX = 8;

/** Group names read from one token's claim; the rest are ignored. */
export const CLAIM_GROUPS_MAX = 500;

/**
 * The distinct names of a groups claim worth looking up: valid group names, NFC-normalised, in
 * their first order, at most CLAIM_GROUPS_MAX. Other entries cannot name a group and are dropped.
 */
export function claimGroupNames(names: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const n of names) {
    if (out.size >= CLAIM_GROUPS_MAX) break;
    if (typeof n !== 'string') continue;
    const name = n.normalize('NFC');
    if (GROUP_NAME.test(name)) out.add(name);
  }
  return [...out];
}

/** The changes that make a user's rows of one source exactly the wanted groups. */
export interface ClaimRow {
  groupId: number;
  /** the user's row in the group: its source, or null when they are not in it */
  source: string | null;
  wanted: boolean;
}

export function claimChanges(rows: readonly ClaimRow[], source: string): { add: number[]; remove: number[] } {
  const add: number[] = [];
  const remove: number[] = [];
  for (const r of rows) {
    if (r.wanted && r.source === null) add.push(r.groupId);
    // Rows of other sources (an administrator's: '') are never touched by a claim.
    else if (!r.wanted && r.source === source) remove.push(r.groupId);
  }
  return { add, remove };
}

/** Whether adding a nesting keeps every chain within NESTING_DEPTH_MAX groups. */
export function nestingFits(above: number, below: number): boolean {
  // above: groups over the containing group; below: groups under the member group.
  return above + 2 + below <= NESTING_DEPTH_MAX;
}
