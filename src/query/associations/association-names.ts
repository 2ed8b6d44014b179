/** What a query may ask to be added to each item (`associations`, `assoc`): see docs/query.md. */
export const ASSOCIATION_NAMES = ['files', 'ibas', 'representations', 'uses', 'usedBy', 'describedBy'] as const;
export type AssociationName = (typeof ASSOCIATION_NAMES)[number];
