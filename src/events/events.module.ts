import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { DefaultEventSenders } from './delivery/default-event-senders.js';
import { DeliveryRepository } from './delivery/delivery.repository.js';
import { DeliveryService } from './delivery/delivery.service.js';
import { EventSenders } from './delivery/event-senders.js';
import { EventWakeups } from './event-wakeups.js';
import { EventsStatsService } from './events-stats.service.js';
import { EventsRepository } from './events.repository.js';
import { EventsFeedController } from './feed/events-feed.controller.js';
import { EventsFeedService } from './feed/events-feed.service.js';
import { DeadLettersRepository } from './subscriptions/dead-letters.repository.js';
import { DeadLettersService } from './subscriptions/dead-letters.service.js';
import { SubscriptionFilters } from './subscriptions/subscription-filters.js';
import { SubscriptionsController } from './subscriptions/subscriptions.controller.js';
import { SubscriptionsRepository } from './subscriptions/subscriptions.repository.js';
import { SubscriptionsService } from './subscriptions/subscriptions.service.js';

/**
 * Change events (docs/events.md): the audit trail in commit order (event_log) read as a pull feed
 * (feed/), subscriptions over HTTP (subscriptions/), and their delivery to webhooks (webhooks/)
 * and NATS JetStream (brokers/) by the loops of delivery/.
 */
@Module({
  imports: [AuthModule, CatalogModule],
  controllers: [EventsFeedController, SubscriptionsController],
  providers: [
    EventsRepository,
    EventWakeups,
    EventsFeedService,
    EventsStatsService,
    SubscriptionsRepository,
    DeadLettersRepository,
    SubscriptionFilters,
    SubscriptionsService,
    DeadLettersService,
    DeliveryRepository,
    DeliveryService,
    { provide: EventSenders, useClass: DefaultEventSenders },
  ],
})
export class EventsModule {}
