import { Injectable } from '@nestjs/common';
import { CatalogService } from '../../catalog/catalog.service.js';
import type { EventFilter } from '../event-record.js';

/** What a subscription selects, as its row says. */
export interface FilterFields {
  actions: string[];
  containerId: number | null;
  type: string | null;
  state: string | null;
}

/**
 * A subscription's filter with its type resolved in the current catalog, so a subclass or soft
 * type declared after the subscription was made is matched too.
 */
@Injectable()
export class SubscriptionFilters {
  constructor(private readonly catalog: CatalogService) {}

  async of(f: FilterFields): Promise<EventFilter> {
    return {
      actions: f.actions,
      containerId: f.containerId,
      state: f.state,
      typeMatches: await this.typeMatcher(f.type),
    };
  }

  /** Why a type names nothing a subscription can match, or null. */
  async typeProblem(type: string): Promise<string | null> {
    const t = (await this.catalog.current()).resolveTable(type);
    return typeof t === 'string' ? t : null;
  }

  private async typeMatcher(type: string | null): Promise<EventFilter['typeMatches']> {
    if (type === null) return null;
    const catalog = await this.catalog.current();
    const t = catalog.resolveTable(type);
    if (typeof t === 'string') return () => false;
    const soft = t.softTypes;
    return (cls, softType) =>
      cls !== null && catalog.isA(cls, t.cls.name) && (soft === null || (softType !== null && soft.includes(softType)));
  }
}
