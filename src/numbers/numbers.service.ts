import { ConflictException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { accessFromRole, type Access } from '../auth/permissions.service.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { formatOid } from '../catalog/oid.js';
import type { WithoutRuntime } from '../common/answers-runtime.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { ContainerSourceQueryDto, GenerateNumbersQueryDto } from './dto/numbers-query.dto.js';
import type { GeneratedNumbersDto, NumberingRulesDto } from './dto/numbers-response.dto.js';
import { formatNumber, formatRange } from './number-format.js';
import { parseClassName } from './numbered-class.js';
import { clip } from '../common/clip.js';
import { parseCount, pickSource, type ContainerSource } from './numbers.params.js';
import { NumbersRepository, type ContainerRecord, type NumberedClass, type Reservation } from './numbers.repository.js';
import { ReservationBatcher } from './reservation-batcher.js';

/**
 * Number generation from the numbering rules of a container. The container comes from exactly
 * one source parameter; generating needs author or manager rights there, listing its rules
 * read rights. A container the caller cannot read is answered like one that does not exist.
 */
@Injectable()
export class NumbersService {
  constructor(
    private readonly repository: NumbersRepository,
    private readonly reservations: ReservationBatcher,
    private readonly catalog: CatalogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async generate(
    user: AuthUser,
    className: string,
    query: GenerateNumbersQueryDto,
  ): Promise<WithoutRuntime<GeneratedNumbersDto>> {
    const source = pickSource(query);
    const cls = parseClassName(await this.catalog.current(), className);
    const count = parseCount(query.count, this.config.numbersMaxCount);

    const { container, access } = await this.resolve(user, source);
    if (access !== 'write' && access !== 'manage') {
      throw new ForbiddenException(
        `generating numbers needs author or manager rights in container '${container.name}'`,
      );
    }

    const r = await this.reservations.reserve(container, cls.rule, {
      count,
      userId: user.id,
      className: cls.name,
    });
    if (!r) {
      throw new NotFoundException(`container '${container.name}' has no numbering rule for ${cls.rule.cls}`);
    }
    if (!r.reserved) {
      const left = count === 1 ? 'no free number' : `fewer than ${count} consecutive free numbers`;
      throw new ConflictException(
        `numbering rule exhausted: the ${cls.rule.cls} rule of container '${container.name}' has ${left} ` +
          `left up to ${formatNumber(r, r.bound - 1n)} (width ${r.width}); nothing was reserved`,
      );
    }
    const items = formatRange(r, r.start, count);
    return { count, class_name: cls.name, container: this.containerRef(container), items };
  }

  async rules(user: AuthUser, query: ContainerSourceQueryDto): Promise<WithoutRuntime<NumberingRulesDto>> {
    const { container } = await this.resolve(user, pickSource(query));
    const rules = await this.repository.listRules(container.id);
    const items = rules.map((rule) => ({
      class_name: rule.cls,
      prefix: rule.prefix,
      suffix: rule.suffix,
      width: rule.width,
      next: Number(rule.next),
      next_number: formatNumber(rule, rule.next),
    }));
    return { count: items.length, container: this.containerRef(container), items };
  }

  /**
   * Reserves `count` numbers of the container's rule for `rule.cls` in the caller's transaction
   * (another module creating an object with a generated number): the rule stays locked until
   * that transaction ends, and its rollback gives the numbers back. Null when the container has
   * no rule for the class. The caller checks permissions and records its own audit event.
   */
  reserveIn(
    tx: Prisma.TransactionClient,
    containerId: number,
    rule: NumberedClass,
    count: number,
  ): Promise<Reservation | null> {
    return this.repository.reserveInTransaction(tx, containerId, rule, count);
  }

  /** The container of the source and the caller's access to it; 404 unless the caller may read it. */
  private async resolve(
    user: AuthUser,
    source: ContainerSource,
  ): Promise<{ container: ContainerRecord; access: Exclude<Access, 'none'> }> {
    const container = await this.repository.findContainer(source, user.id);
    const access = container ? accessFromRole(user, container.role) : 'none';
    if (!container || access === 'none') throw new NotFoundException(notFoundMessage(source));
    return { container, access };
  }

  private containerRef(container: ContainerRecord): { oid: string; name: string } {
    return { oid: formatOid(container.cls, container.id), name: container.name };
  }
}

function notFoundMessage(source: ContainerSource): string {
  switch (source.kind) {
    case 'container-name':
      return `no container named '${clip(source.text)}'`;
    case 'container-ref':
      return `no container ${source.text}`;
    case 'workspace-name':
      return `no workspace named '${clip(source.text)}'`;
    case 'workspace-ref':
      return `no workspace ${source.text}`;
  }
}
