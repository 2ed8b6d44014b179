import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../../prisma/prisma.service.js';

const { sql } = Prisma;

/** Which iterations of each object a list holds. */
export type IterationChoice =
  /** the latest iteration */
  | { kind: 'latest' }
  /** every iteration */
  | { kind: 'all' }
  /** the newest iteration in one of these (released) states */
  | { kind: 'released'; states: readonly string[] };

/** A list of versioned objects: criteria already checked, patterns as SQL LIKE patterns (escape `\`). */
export interface ObjectListFilter {
  /** the classes listed (a class and the classes below it; soft types are stored with their class) */
  classes: readonly string[];
  namePattern: string | null;
  numberPattern: string | null;
  state: string | null;
  /** login names of the iteration's creator and modifier */
  creator: string | null;
  modifier: string | null;
  iterations: IterationChoice;
  /** the containers the caller may read; null: all (administrators) */
  readable: readonly number[] | null;
  start: number;
  limit: number;
}

/** One listed iteration: what a pointer to it needs. */
export interface ObjectListRow {
  iterationId: number;
  cls: string;
  number: string;
  name: string;
}

/** Lists of iterations by class and criteria, in number order (then class, then iteration). */
@Injectable()
export class ObjectListsRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(f: ObjectListFilter): Promise<ObjectListRow[]> {
    // Working copies of check-outs are their holders' alone: never listed.
    const where: Prisma.Sql[] = [sql`m.class = ANY(${[...f.classes]}::text[])`, sql`NOT i.working`];
    if (f.readable !== null) where.push(sql`m.container_id = ANY(${[...f.readable]}::integer[])`);
    if (f.namePattern !== null) where.push(sql`m.name LIKE ${f.namePattern}`);
    if (f.numberPattern !== null) where.push(sql`m.number LIKE ${f.numberPattern}`);
    if (f.state !== null) where.push(sql`i.state = ${f.state}`);
    if (f.creator !== null) where.push(sql`i.created_by = (SELECT u.id FROM users u WHERE u.name = ${f.creator})`);
    if (f.modifier !== null) where.push(sql`i.modified_by = (SELECT u.id FROM users u WHERE u.name = ${f.modifier})`);
    if (f.iterations.kind === 'latest') where.push(sql`i.latest`);
    if (f.iterations.kind === 'released') {
      where.push(sql`i.id = (
        SELECT max(r.id) FROM iterations r
        WHERE r.master_id = i.master_id AND NOT r.working AND r.state = ANY(${[...f.iterations.states]}::text[]))`);
    }
    return this.prisma.$queryRaw<ObjectListRow[]>`
      SELECT i.id AS "iterationId", m.class AS cls, m.number, m.name
      FROM iterations i JOIN masters m ON m.id = i.master_id
      WHERE ${Prisma.join(where, ' AND ')}
      ORDER BY m.number, m.class, i.id
      LIMIT ${f.limit} OFFSET ${f.start}`;
  }
}
