import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { CatalogService } from '../catalog/catalog.service.js';
import type { NumberingRuleDto } from '../numbers/dto/numbers-response.dto.js';
import { formatNumber } from '../numbers/number-format.js';
import { clip } from '../common/clip.js';
import { requireAdmin } from '../auth/admin-access.js';
import { isUniqueViolation } from '../common/database-errors.js';
import { containerEvent, ruleFacts } from './admin-audit.js';
import type { CreateRuleDto, RuleListDto, UpdateRuleDto } from './dto/rules.dto.js';
import { AdminRulesRepository, type AdminRuleRecord } from './rules.repository.js';

/**
 * Numbering rules of a container (administrators). A rule's counter only moves forward: the
 * numbers below it may have been handed out, so `next` is never set below the current counter,
 * checked with the rule locked as number generation locks it.
 */
@Injectable()
export class RulesService {
  constructor(
    private readonly rules: AdminRulesRepository,
    private readonly catalog: CatalogService,
  ) {}

  async list(caller: AuthUser, containerName: string): Promise<RuleListDto> {
    requireAdmin(caller);
    const container = await this.container(containerName);
    const items = (await this.rules.list(container.id)).map(toDto);
    return { count: items.length, container: container.name, items };
  }

  async create(caller: AuthUser, containerName: string, body: CreateRuleDto): Promise<NumberingRuleDto> {
    requireAdmin(caller);
    const catalog = await this.catalog.current();
    const numbered = catalog.numberedClasses();
    if (!numbered.includes(body.class_name)) {
      throw new BadRequestException(
        `class_name must be one of ${numbered.join(', ')} (the versioned and plain classes of the catalog), ` +
          `not "${clip(body.class_name)}"`,
      );
    }
    const container = await this.container(containerName);
    const rule: AdminRuleRecord = {
      cls: body.class_name,
      prefix: body.prefix ?? '',
      suffix: body.suffix ?? '',
      width: body.width,
      next: BigInt(body.next ?? 1),
    };
    checkFits(rule);
    try {
      const event = containerEvent(caller.id, 'admin.rule.create', container, {
        class_name: rule.cls,
        after: ruleFacts(rule),
      });
      return toDto(await this.rules.create(container.id, rule, event));
    } catch (e) {
      if (isUniqueViolation(e)) {
        throw new ConflictException(`class_name: container '${container.name}' has a rule for ${rule.cls} already`);
      }
      throw e;
    }
  }

  async update(caller: AuthUser, containerName: string, cls: string, body: UpdateRuleDto): Promise<NumberingRuleDto> {
    requireAdmin(caller);
    if (Object.values(body).every((v) => v === undefined)) {
      throw new BadRequestException('give at least one of prefix, suffix, width, next');
    }
    const container = await this.container(containerName);
    return this.rules.withLockedRule(container.id, cls, async (rule, write) => {
      if (!rule) throw noRule(container.name, cls);
      const next = body.next === undefined ? rule.next : BigInt(body.next);
      if (next < rule.next) {
        throw new ConflictException(
          `next: ${next} is below the rule's counter ${rule.next}; numbers below it may have been handed out`,
        );
      }
      const changed: AdminRuleRecord = {
        cls,
        prefix: body.prefix ?? rule.prefix,
        suffix: body.suffix ?? rule.suffix,
        width: body.width ?? rule.width,
        next,
      };
      checkFits(changed);
      const saved = await write(changed, (after) =>
        containerEvent(caller.id, 'admin.rule.update', container, {
          class_name: cls,
          before: ruleFacts(rule),
          after: ruleFacts(after),
        }),
      );
      return toDto(saved);
    });
  }

  async remove(caller: AuthUser, containerName: string, cls: string): Promise<void> {
    requireAdmin(caller);
    const container = await this.container(containerName);
    const deleted = await this.rules.delete(container.id, cls, (gone) =>
      containerEvent(caller.id, 'admin.rule.delete', container, { class_name: cls, before: ruleFacts(gone) }),
    );
    if (!deleted) throw noRule(container.name, cls);
  }

  private async container(name: string): Promise<{ id: number; cls: string; name: string }> {
    const container = await this.rules.containerId(name);
    if (!container) throw new NotFoundException(`no container named '${clip(name)}'`);
    return container;
  }
}

/** The counter must be writable in the width: below 10^width. */
function checkFits(rule: AdminRuleRecord): void {
  if (rule.next >= 10n ** BigInt(rule.width)) {
    throw new BadRequestException(`next: ${rule.next} has more than width ${rule.width} digits`);
  }
}

function noRule(container: string, cls: string): NotFoundException {
  return new NotFoundException(`container '${container}' has no numbering rule for ${clip(cls)}`);
}

function toDto(rule: AdminRuleRecord): NumberingRuleDto {
  return {
    class_name: rule.cls,
    prefix: rule.prefix,
    suffix: rule.suffix,
    width: rule.width,
    next: Number(rule.next),
    next_number: formatNumber(rule, rule.next),
  };
}
