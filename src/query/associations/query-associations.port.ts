import type { AssociationName } from './association-names.js';

/**
 * Loads the associations a query asked for (files, ibas, representations …) for the items of one
 * reply: per item id (the iteration's id), an array per name asked. An item missing from the map,
 * or a name missing for an item, answers an empty array.
 */
export interface AssociationLoader {
  load(
    names: readonly AssociationName[],
    items: readonly { id: number; cls: string }[],
    readable: number[] | null,
    base: string,
  ): Promise<Map<number, Partial<Record<AssociationName, unknown[]>>>>;
}

/** The injection token of the AssociationLoader the query service uses. */
export const ASSOCIATION_LOADER = Symbol('ASSOCIATION_LOADER');
