/**
 * Objects an event's `detail` names besides its own object. A history is read by everyone who may
 * read its object, but what a change named may lie in a container they cannot read: such a
 * reference is answered `{ "restricted": true }`, as structure and where-used answer the node.
 *
 * Today every such reference is a usage link's member, named by number under `member` in the
 * events on the using object's master: the member is a master of the same class (parts use parts,
 * CAD assemblies CAD documents). Catalog links (`objects.links.*`) and the references a deletion
 * removed (`objects.update` with `deleted`) are events of other objects, listed to administrators
 * only.
 */
export const MEMBER_ACTIONS: readonly string[] = [
  'objects.uses.add',
  'objects.uses.update',
  'objects.uses.remove',
  'numbers.link',
];

/** A reference the caller may not follow. */
export const RESTRICTED = Object.freeze({ restricted: true as const });

/** The detail as the caller may see it: the member replaced when it is hidden from them. */
export function withHiddenMember(
  detail: Record<string, unknown> | null,
  memberHidden: boolean,
): Record<string, unknown> | null {
  if (!memberHidden || detail === null) return detail;
  return { ...detail, member: RESTRICTED };
}
