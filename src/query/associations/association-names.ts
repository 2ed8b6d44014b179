export const ASSOCIATION_NAMES = ['files', 'ibas', 'representations', 'uses', 'usedBy', 'describedBy'] as const;
export type AssociationName = (typeof ASSOCIATION_NAMES)[number];
