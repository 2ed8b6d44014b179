import type { AssociationName } from './association-names.js';

export interface AssociationLoader {
  load(
    names: readonly AssociationName[],
    items: readonly { id: number; cls: string }[],
    readable: number[] | null,
    base: string,
  ): Promise<Map<number, Partial<Record<AssociationName, unknown[]>>>>;
}

export const ASSOCIATION_LOADER = Symbol('ASSOCIATION_LOADER');
