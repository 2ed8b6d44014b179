import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../auth/auth-user.js';
import type { PageQueryDto } from '../../common/paging.dto.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeliveryService } from '../delivery/delivery.service.js';
import { toCloudEvent } from '../event-record.js';
import { EventsRepository } from '../events.repository.js';
import { DeadLettersRepository } from './dead-letters.repository.js';
import type { DeadLetterListDto, DeadLettersDto, DiscardedDto, RedeliveredDto } from './dto/subscriptions.dto.js';
import { SUBSCRIPTION_CLASS, SubscriptionsService } from './subscriptions.service.js';

/** A subscription's dead letters: listed by who sees it, queued again or deleted by who manages it. */
@Injectable()
export class DeadLettersService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly subscriptions: SubscriptionsService,
    private readonly repo: DeadLettersRepository,
    private readonly events: EventsRepository,
    private readonly delivery: DeliveryService,
  ) {}

  async list(caller: AuthUser, id: number, q: PageQueryDto): Promise<DeadLetterListDto> {
    const sub = await this.subscriptions.visible(caller, id);
    const { total, rows } = await this.repo.page(id, (q.page - 1) * q.limit, q.limit);
    // Shown as the owner would receive it, so a manager does not read more than the owner may.
    const records = await this.events.byIds(
      rows.map((r) => BigInt(r.eventId)),
      { userId: sub.ownerId, admin: sub.ownerAdmin },
    );
    const byId = new Map(records.map((r) => [r.id, r]));
    return {
      count: rows.length,
      total,
      page: q.page,
      limit: q.limit,
      items: rows.map((r) => {
        const record = byId.get(BigInt(r.eventId));
        return {
          id: String(r.id),
          attempts: r.attempts,
          lastError: r.lastError,
          failedAt: r.failedAt.toISOString(),
          requeued: r.requeuedAt !== null,
          eventId: String(r.eventId),
          event: record?.visible ? toCloudEvent(record, this.config.eventsSource) : null,
        };
      }),
    };
  }

  async redeliver(caller: AuthUser, id: number, body: DeadLettersDto): Promise<RedeliveredDto> {
    const sub = await this.subscriptions.managed(caller, id);
    const ids = body.ids?.map((s) => BigInt(s)) ?? null;
    const requeued = await this.repo.requeue(id, ids, (n) => ({
      userId: caller.id,
      action: 'events.dead-letters.redeliver',
      objectClass: SUBSCRIPTION_CLASS,
      objectId: id,
      objectNumber: sub.name,
      detail: { requeued: n, ...(body.ids ? { ids: body.ids.slice(0, 50) } : {}) },
    }));
    if (requeued > 0) this.delivery.kick(true);
    return { requeued };
  }

  async discard(caller: AuthUser, id: number, body: DeadLettersDto): Promise<DiscardedDto> {
    const sub = await this.subscriptions.managed(caller, id);
    const discarded = await this.repo.discard(id, body.ids?.map((s) => BigInt(s)) ?? null, (n) => ({
      userId: caller.id,
      action: 'events.dead-letters.discard',
      objectClass: SUBSCRIPTION_CLASS,
      objectId: id,
      objectNumber: sub.name,
      detail: { discarded: n, ...(body.ids ? { ids: body.ids.slice(0, 50) } : {}) },
    }));
    return { discarded };
  }
}
