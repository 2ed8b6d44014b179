import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { AuditEvent } from '../../audit/audit-events.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { isUniqueViolation } from '../../common/database-errors.js';
import { checkSubject } from '../brokers/broker-subjects.js';
import { actionPatternProblem } from '../event-types.js';
import { checkWebhookSecret, newWebhookSecret } from '../webhooks/webhook-secret.js';
import { WebhookAddressPolicy } from '../webhooks/webhook-address.js';
import type {
  CreatedSubscriptionDto,
  CreateSubscriptionDto,
  SubscriptionDto,
  SubscriptionListDto,
  UpdateSubscriptionDto,
} from './dto/subscriptions.dto.js';
import { DeliveryService } from '../delivery/delivery.service.js';
import { SubscriptionFilters } from './subscription-filters.js';
import {
  SubscriptionsRepository,
  type SubscriptionFields,
  type SubscriptionRow,
  type SubscriptionViewer,
} from './subscriptions.repository.js';

/** The class audit events of subscriptions and their dead letters name. */
export const SUBSCRIPTION_CLASS = 'pdm.events.Subscription';

/**
 * Subscriptions over HTTP: administrators manage every one; a container's managers make
 * subscriptions for their containers (the container is required) and manage those; everyone
 * else only lists their own. Each write records an audit event (never the secret).
 */
@Injectable()
export class SubscriptionsService {
  private readonly addresses: WebhookAddressPolicy;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: SubscriptionsRepository,
    private readonly filters: SubscriptionFilters,
    private readonly delivery: DeliveryService,
  ) {
    this.addresses = new WebhookAddressPolicy(config.eventsWebhookAllow);
  }

  async list(caller: AuthUser): Promise<SubscriptionListDto> {
    const rows = await this.repo.list(await this.viewer(caller));
    return { count: rows.length, items: rows.map(toDto) };
  }

  async get(caller: AuthUser, id: number): Promise<SubscriptionDto> {
    return toDto(await this.visible(caller, id));
  }

  async create(caller: AuthUser, body: CreateSubscriptionDto): Promise<CreatedSubscriptionDto> {
    const managed = caller.admin ? [] : await this.repo.managedContainers(caller.id);
    const fields = await this.fields(caller, body, null, managed);
    const row = await this.repo
      .create(caller.id, fields, this.config.eventsSubscriptionLimit, (r) => audit(caller, 'create', r, null))
      .catch((e: unknown) => this.duplicate(e, fields.name));
    if (!row) {
      throw new ConflictException(
        `${caller.name} has ${this.config.eventsSubscriptionLimit} subscriptions (EVENTS_SUBSCRIPTION_LIMIT); delete one first`,
      );
    }
    if (row.active) this.delivery.kick(true);
    return { ...toDto(row), ...(row.secret ? { secret: row.secret } : {}) };
  }

  async update(caller: AuthUser, id: number, body: UpdateSubscriptionDto): Promise<CreatedSubscriptionDto> {
    const { row: before, viewer } = await this.access(caller, id, true);
    const fields = await this.fields(caller, body, before, viewer.managed);
    const resume = body.active === true && !before.active;
    const row = await this.repo
      .update(id, fields, resume, (b, a) => audit(caller, 'update', a, b))
      .catch((e: unknown) => this.duplicate(e, fields.name));
    if (!row) throw new NotFoundException(`no subscription ${id}`);
    if (row.active) this.delivery.kick(true);
    const newSecret = body.secret === undefined && fields.secret !== before.secret ? row.secret : null;
    return { ...toDto(row), ...(newSecret ? { secret: newSecret } : {}) };
  }

  async delete(caller: AuthUser, id: number): Promise<void> {
    await this.managed(caller, id);
    const row = await this.repo.delete(id, (r) => audit(caller, 'delete', r, null));
    if (!row) throw new NotFoundException(`no subscription ${id}`);
  }

  /** The subscription when the caller may see it (404 otherwise: its existence is not told). */
  async visible(caller: AuthUser, id: number): Promise<SubscriptionRow> {
    return (await this.access(caller, id, false)).row;
  }

  /** The subscription when the caller may change it: its container's manager or an administrator. */
  async managed(caller: AuthUser, id: number): Promise<SubscriptionRow> {
    return (await this.access(caller, id, true)).row;
  }

  /** The subscription and who asks, when the caller may see it (and change it, with `change`). */
  private async access(
    caller: AuthUser,
    id: number,
    change: boolean,
  ): Promise<{ row: SubscriptionRow; viewer: SubscriptionViewer }> {
    const row = await this.repo.get(id);
    const viewer = await this.viewer(caller);
    const manages = viewer.admin || (row?.containerId != null && viewer.managed.includes(row.containerId));
    if (!row || !(manages || row.ownerId === caller.id)) throw new NotFoundException(`no subscription ${id}`);
    if (change && !manages)
      throw new ForbiddenException(`only administrators and managers of its container change subscription ${id}`);
    return { row, viewer };
  }

  private async viewer(caller: AuthUser): Promise<SubscriptionViewer> {
    return {
      userId: caller.id,
      admin: caller.admin,
      managed: caller.admin ? [] : await this.repo.managedContainers(caller.id),
    };
  }

  private duplicate(e: unknown, name: string): never {
    if (isUniqueViolation(e)) throw new ConflictException(`a subscription named "${name}" is there already`);
    throw e;
  }

  /** The fields a create (before null) or an update writes, checked. */
  private async fields(
    caller: AuthUser,
    body: CreateSubscriptionDto | UpdateSubscriptionDto,
    before: SubscriptionRow | null,
    managed: readonly number[],
  ): Promise<SubscriptionFields> {
    const actions = body.actions ?? before?.actions ?? [];
    for (const a of actions) {
      const problem = actionPatternProblem(a);
      if (problem) throw new BadRequestException(`actions: ${problem}`);
    }
    const containerId =
      body.container === undefined
        ? (before?.containerId ?? null)
        : body.container === null
          ? null
          : await this.container(body.container);
    if (!caller.admin) {
      if (containerId === null)
        throw new ForbiddenException('only administrators subscribe to every container; name a container you manage');
      if (!managed.includes(containerId))
        throw new ForbiddenException(`only administrators and the container's managers subscribe to its events`);
    }
    const type = body.type === undefined ? (before?.type ?? null) : body.type;
    if (type !== null && type !== before?.type) {
      const problem = await this.filters.typeProblem(type);
      if (problem) throw new BadRequestException(`type: ${problem}`);
    }
    const target = this.target(body, before);
    const active = body.active ?? before?.active ?? true;
    return {
      name: body.name ?? before!.name,
      actions,
      containerId,
      type,
      state: body.state === undefined ? (before?.state ?? null) : body.state,
      ...target,
      active,
    };
  }

  private async container(name: string): Promise<number> {
    const id = await this.repo.containerId(name);
    if (id === null) throw new BadRequestException(`container: no container named "${name}"`);
    return id;
  }

  private target(
    body: CreateSubscriptionDto | UpdateSubscriptionDto,
    before: SubscriptionRow | null,
  ): Pick<SubscriptionFields, 'targetKind' | 'target' | 'secret'> {
    const given = (['url', 'nats', 'amqp'] as const).filter((k) => body[k] !== undefined);
    if (given.length > 1)
      throw new BadRequestException(
        `give one of url (a webhook), nats (a subject) and amqp (a routing key), not ${given.join(' and ')}`,
      );
    if (given.length === 0) {
      if (!before)
        throw new BadRequestException(
          'one of url (a webhook), nats (a NATS subject prefix) and amqp (an AMQP routing key prefix) is required',
        );
      if (body.secret !== undefined && before.targetKind !== 'webhook')
        throw new BadRequestException('secret: only webhooks are signed');
      return {
        targetKind: before.targetKind,
        target: before.target,
        secret: body.secret === undefined ? before.secret : this.secret(body.secret),
      };
    }
    if (body.nats !== undefined || body.amqp !== undefined) {
      const [kind, prefix, configured, variable] =
        body.nats !== undefined
          ? (['nats', body.nats, this.config.eventsNatsUrl, 'EVENTS_NATS_URL'] as const)
          : (['amqp', body.amqp!, this.config.eventsAmqpUrl, 'EVENTS_AMQP_URL'] as const);
      if (body.secret !== undefined) throw new BadRequestException('secret: only webhooks are signed');
      if (!configured)
        throw new BadRequestException(
          `${kind}: no ${kind === 'nats' ? 'NATS server' : 'AMQP broker'} is configured (${variable})`,
        );
      const problem = checkSubject(prefix, this.config.eventsSubjectRoot);
      if (problem) throw new BadRequestException(`${kind}: ${problem}`);
      return { targetKind: kind, target: prefix, secret: null };
    }
    const problem = this.addresses.checkUrl(body.url!);
    if (problem) throw new BadRequestException(`url: ${problem}`);
    const keep = before?.targetKind === 'webhook' ? before.secret : null;
    return {
      targetKind: 'webhook',
      target: body.url!,
      secret: body.secret !== undefined ? this.secret(body.secret) : (keep ?? newWebhookSecret()),
    };
  }

  private secret(s: string): string {
    const problem = checkWebhookSecret(s);
    if (problem) throw new BadRequestException(`secret: ${problem}`);
    return s;
  }
}

export function toDto(r: SubscriptionRow): SubscriptionDto {
  return {
    id: r.id,
    name: r.name,
    owner: r.owner,
    actions: r.actions,
    container: r.container,
    type: r.type,
    state: r.state,
    ...(r.targetKind === 'webhook'
      ? { url: r.target }
      : r.targetKind === 'nats'
        ? { nats: r.target }
        : { amqp: r.target }),
    ...(r.secret ? { secretHint: `…${r.secret.slice(-5)}` } : {}),
    active: r.active,
    pausedReason: r.pausedReason,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function audit(caller: AuthUser, verb: string, r: SubscriptionRow, before: SubscriptionRow | null): AuditEvent {
  const shown = (s: SubscriptionRow) => ({
    name: s.name,
    actions: s.actions,
    container: s.container,
    type: s.type,
    state: s.state,
    target: s.target,
    active: s.active,
  });
  return {
    userId: caller.id,
    action: `events.subscription.${verb}`,
    objectClass: SUBSCRIPTION_CLASS,
    objectId: r.id,
    objectNumber: r.name,
    // Administrators' events only (no container): the feed would show a target to the container's readers.
    containerId: null,
    detail: before ? { before: shown(before), after: shown(r) } : { ...shown(r), owner: r.owner },
  };
}
