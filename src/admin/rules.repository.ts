import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';

export interface AdminRuleRecord {
  cls: string;
  prefix: string;
  suffix: string;
  width: number;
  next: bigint;
}

const RULE_COLUMNS = { cls: true, prefix: true, suffix: true, width: true, next: true } as const;

type Tx = Prisma.TransactionClient;

/** Numbering rules, as administration reads and writes them. */
@Injectable()
export class AdminRulesRepository {
  constructor(private readonly prisma: PrismaService) {}

  containerId(name: string): Promise<{ id: number; name: string } | null> {
    return this.prisma.container.findUnique({ where: { name }, select: { id: true, name: true } });
  }

  list(containerId: number): Promise<AdminRuleRecord[]> {
    return this.prisma.numberingRule.findMany({
      where: { containerId },
      select: RULE_COLUMNS,
      orderBy: { cls: 'asc' },
    });
  }

  create(containerId: number, rule: AdminRuleRecord): Promise<AdminRuleRecord> {
    return this.prisma.numberingRule.create({ data: { containerId, ...rule }, select: RULE_COLUMNS });
  }

  /**
   * Runs `work` on the rule with its row locked FOR UPDATE, the lock number generation takes
   * (see reservationSql): a reservation under way finishes first and `work` sees the counter it
   * left behind; one that starts later waits until this transaction ends. Null: no such rule.
   */
  withLockedRule<T>(
    containerId: number,
    cls: string,
    work: (
      rule: AdminRuleRecord | null,
      write: (change: Partial<AdminRuleRecord>) => Promise<AdminRuleRecord>,
    ) => Promise<T>,
  ): Promise<T> {
    return this.prisma.$transaction(async (tx: Tx) => {
      const [rule] = await tx.$queryRaw<(AdminRuleRecord & { id: number })[]>`
        SELECT id, class AS cls, prefix, suffix, width, next FROM numbering_rules
        WHERE container_id = ${containerId} AND class = ${cls} FOR UPDATE`;
      const write = (change: Partial<AdminRuleRecord>) =>
        tx.numberingRule.update({ where: { id: rule.id }, data: change, select: RULE_COLUMNS });
      return work(
        rule ? { cls: rule.cls, prefix: rule.prefix, suffix: rule.suffix, width: rule.width, next: rule.next } : null,
        write,
      );
    });
  }

  /** True when there was such a rule. */
  async delete(containerId: number, cls: string): Promise<boolean> {
    const { count } = await this.prisma.numberingRule.deleteMany({ where: { containerId, cls } });
    return count > 0;
  }
}
