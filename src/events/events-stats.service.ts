import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { EventsRepository } from './events.repository.js';
import type { EventStatsDto } from './feed/dto/feed.dto.js';
import { DeadLettersRepository } from './subscriptions/dead-letters.repository.js';
import { SubscriptionsRepository } from './subscriptions/subscriptions.repository.js';

/** GET /events/stats: the feed's bounds and, per subscription the caller sees, how far delivery is. */
@Injectable()
export class EventsStatsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly letters: DeadLettersRepository,
  ) {}

  async stats(caller: AuthUser): Promise<EventStatsDto> {
    const managed = caller.admin ? [] : await this.subscriptions.managedContainers(caller.id);
    const rows = await this.subscriptions.list({ userId: caller.id, admin: caller.admin, managed });
    const ids = rows.map((r) => r.id);
    const [bounds, backlogs, dead] = await Promise.all([
      this.events.bounds(),
      this.events.backlogs(ids),
      this.letters.counts(ids),
    ]);
    return {
      head: String(bounds.last),
      oldest: String(bounds.first),
      oldestAt: bounds.firstAt?.toISOString() ?? null,
      subscriptions: rows.map((r) => ({
        id: r.id,
        name: r.name,
        active: r.active,
        cursor: String(r.cursor),
        backlog: backlogs.get(r.id)?.backlog ?? 0,
        oldestUndelivered: backlogs.get(r.id)?.oldest?.toISOString() ?? null,
        delivered: String(r.delivered),
        failures: String(r.failures),
        attempts: r.attempts,
        nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
        lastError: r.lastError,
        deadLetters: dead.get(r.id) ?? 0,
        lastDeliveredAt: r.lastDeliveredAt?.toISOString() ?? null,
      })),
    };
  }
}
