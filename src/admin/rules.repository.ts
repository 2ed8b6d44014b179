import { Injectable } from '@nestjs/common';
import { type AuditEvent } from '../audit/audit-events.js';
import { auditViaPrisma, recordAudit } from '../audit/audit.repository.js';
import { PrismaService } from '../prisma/prisma.service.js';

export interface AdminRuleRecord {
  cls: string;
  prefix: string;
  suffix: string;
  width: number;
  next: bigint;
}

const RULE_COLUMNS = { cls: true, prefix: true, suffix: true, width: true, next: true } as const;

/** Numbering rules, as administration reads and writes them. */
@Injectable()
export class AdminRulesRepository {
  constructor(private readonly prisma: PrismaService) {}

  containerId(name: string): Promise<{ id: number; cls: string; name: string } | null> {
    return this.prisma.container.findUnique({ where: { name }, select: { id: true, cls: true, name: true } });
  }

  list(containerId: number): Promise<AdminRuleRecord[]> {
    return this.prisma.numberingRule.findMany({
      where: { containerId },
      select: RULE_COLUMNS,
      orderBy: { cls: 'asc' },
    });
  }

  /** Creates the rule and records `audit`, in one transaction. */
  create(containerId: number, rule: AdminRuleRecord, audit: AuditEvent): Promise<AdminRuleRecord> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const created = await tx.numberingRule.create({ data: { containerId, ...rule }, select: RULE_COLUMNS });
      await recordAudit(auditViaPrisma(tx), audit);
      return created;
    });
  }

  /**
   * Runs `work` on the rule with its row locked FOR UPDATE, the lock number generation takes
   * (see reservationSql): a reservation under way finishes first and `work` sees the counter it
   * left behind; one that starts later waits until this transaction ends. Null: no such rule.
   * `write` changes the rule and records the event `audit` makes of it as it is then.
   */
  withLockedRule<T>(
    containerId: number,
    cls: string,
    work: (
      rule: AdminRuleRecord | null,
      write: (
        change: Partial<AdminRuleRecord>,
        audit: (after: AdminRuleRecord) => AuditEvent,
      ) => Promise<AdminRuleRecord>,
    ) => Promise<T>,
  ): Promise<T> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const [rule] = await tx.$queryRaw<(AdminRuleRecord & { id: number })[]>`
        SELECT id, class AS cls, prefix, suffix, width, next FROM numbering_rules
        WHERE container_id = ${containerId} AND class = ${cls} FOR UPDATE`;
      const write = async (change: Partial<AdminRuleRecord>, audit: (after: AdminRuleRecord) => AuditEvent) => {
        const after = await tx.numberingRule.update({ where: { id: rule.id }, data: change, select: RULE_COLUMNS });
        await recordAudit(auditViaPrisma(tx), audit(after));
        return after;
      };
      return work(
        rule ? { cls: rule.cls, prefix: rule.prefix, suffix: rule.suffix, width: rule.width, next: rule.next } : null,
        write,
      );
    });
  }

  /**
   * Deletes the rule and records the event `audit` makes of what it was, in one transaction.
   * False (and no event) when there was no such rule.
   */
  delete(containerId: number, cls: string, audit: (deleted: AdminRuleRecord) => AuditEvent): Promise<boolean> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const [gone] = await tx.$queryRaw<AdminRuleRecord[]>`
        DELETE FROM numbering_rules WHERE container_id = ${containerId} AND class = ${cls}
        RETURNING class AS cls, prefix, suffix, width, next`;
      if (!gone) return false;
      await recordAudit(auditViaPrisma(tx), audit(gone));
      return true;
    });
  }

  /**
   * Stores a dataset's rules of a container, in the caller's transaction. The counter only moves
   * forward: re-importing must never hand out numbers again.
   */
  async importRules(containerId: number, rules: AdminRuleRecord[]): Promise<void> {
    for (const r of rules) {
      await this.prisma.$executeRaw`
        INSERT INTO numbering_rules (container_id, class, prefix, suffix, width, next)
        VALUES (${containerId}, ${r.cls}, ${r.prefix}, ${r.suffix}, ${r.width}, ${r.next})
        ON CONFLICT (container_id, class) DO UPDATE
        SET prefix = EXCLUDED.prefix, suffix = EXCLUDED.suffix, width = EXCLUDED.width,
            next = GREATEST(numbering_rules.next, EXCLUDED.next)`;
    }
  }
}
