import { Injectable } from '@nestjs/common';
import type { MemberRole } from '../../generated/prisma/client.js';
import { PrismaService } from '../../prisma/prisma.service.js';
import type { RelatedLinkClasses } from './related-link-classes.js';

/** What a collection follows from an object: see RelatedObjectsService. */
export const RELATIONS = ['structure', 'members', 'documents', 'drawings', 'affected'] as const;
export type Relation = (typeof RELATIONS)[number];

/** One object reached from an object of the frontier. */
export interface RelatedRow {
  from_id: number;
  via: Relation;
  iteration_id: number;
  master_id: number;
  cls: string;
  number: string;
  version: string;
  iteration: number;
  container_id: number;
  member_role: MemberRole | null;
}

/** What one step of a collection follows. */
export interface RelatedStep {
  /** The iterations to follow from, with their depth below the root (usage links are followed above `levels`). */
  from: { iterationId: number; depth: number }[];
  levels: number;
  /** The link classes of each relation (see relatedLinkClasses); a relation not followed has none. */
  classes: RelatedLinkClasses;
  /** The iteration whose change's affected objects are followed (the root), or null. */
  affectedFrom: number | null;
  userId: number;
  /** Containers whose links the caller may read; null: all (administrators). */
  readable: readonly number[] | null;
}

/**
 * One statement per step of a collection: the objects that the frontier's usage links (of its
 * iteration), catalog links (of any iteration of its master: links name the iteration they were
 * made on) and change links name, each with the caller's role in its container. Links the
 * caller may not read are not followed. The link classes are bound values, from the catalog; a
 * relation not followed has none, and its part of the statement is skipped at once. A working
 * copy of a check-out is its holder's draft: its links count only from itself (a collection its
 * holder starts from it), and it is reached only by its holder ($12).
 */
const RELATED_SQL = `
WITH f AS (SELECT * FROM unnest($1::int4[], $2::int4[]) AS f(iteration_id, depth)),
fm AS (
  SELECT f.iteration_id AS from_id, i2.id AS any_id
  FROM f JOIN iterations i ON i.id = f.iteration_id
  JOIN iterations i2 ON i2.master_id = i.master_id AND (NOT i2.working OR i2.id = i.id)
),
rl AS (
  SELECT l.* FROM links l
  WHERE l.container_id IS NULL OR $9::int4[] IS NULL OR l.container_id = ANY($9::int4[])
),
hits AS (
  SELECT f.iteration_id AS from_id,
         CASE WHEN ul.class = ANY($3::text[]) THEN 'structure' ELSE 'members' END AS via,
         li.id AS target, ul.id AS ord
  FROM f JOIN usage_links ul ON ul.parent_id = f.iteration_id
  JOIN iterations li ON li.master_id = ul.child_id AND li.latest
  WHERE ul.class = ANY($3::text[] || $13::text[]) AND f.depth < $4::int4
  UNION ALL
  SELECT fm.from_id, 'documents', l.role_b_id, l.id
  FROM fm JOIN rl l ON l.role_a_id = fm.any_id AND l.class = ANY($5::text[])
  WHERE cardinality($5::text[]) > 0
  UNION ALL
  SELECT fm.from_id, 'documents', li.id, l.id
  FROM fm JOIN rl l ON l.role_a_id = fm.any_id AND l.class = ANY($6::text[])
  JOIN iterations li ON li.master_id = l.role_b_id AND li.latest
  WHERE cardinality($6::text[]) > 0
  UNION ALL
  SELECT fm.from_id, 'drawings', l.role_a_id, l.id
  FROM fm JOIN rl l ON l.role_b_id = fm.any_id AND l.class = ANY($7::text[])
  WHERE cardinality($7::text[]) > 0
  UNION ALL
  SELECT fm.from_id, 'affected', ad.role_b_id, ad.id
  FROM fm JOIN rl inc ON inc.class = ANY($10::text[]) AND inc.role_a_id = fm.any_id
  JOIN rl ad ON ad.class = ANY($11::text[]) AND ad.role_a_id = inc.role_b_id
  WHERE fm.from_id = $8::int4
  UNION ALL
  SELECT fm.from_id, 'affected', ad.role_b_id, ad.id
  FROM fm JOIN rl ad ON ad.class = ANY($11::text[]) AND ad.role_a_id = fm.any_id
  WHERE fm.from_id = $8::int4
)
SELECT h.from_id, h.via, i.id AS iteration_id, m.id AS master_id, m.class AS cls, m.number, i.version, i.iteration,
       m.container_id, ar.role AS member_role
FROM hits h
JOIN iterations i ON i.id = h.target
JOIN masters m ON m.id = i.master_id
LEFT JOIN access_roles ar ON ar.container_id = m.container_id AND ar.user_id = $12::int4
WHERE NOT i.working OR m.checked_out_by = $12::int4
ORDER BY h.from_id, h.via, h.ord`;

/** The reads of a collection of related objects (files' ZIP collections). */
@Injectable()
export class RelatedObjectsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async step(step: RelatedStep): Promise<RelatedRow[]> {
    const { rows } = await this.prisma.pgPool.query<RelatedRow>({
      name: 'objects-related-step',
      text: RELATED_SQL,
      values: [
        step.from.map((f) => f.iterationId),
        step.from.map((f) => f.depth),
        step.classes.structure,
        step.levels,
        step.classes.documents,
        step.classes.documentMasters,
        step.classes.drawings,
        step.affectedFrom,
        step.readable === null ? null : [...step.readable],
        step.classes.includedIn,
        step.classes.affected,
        step.userId,
        step.classes.members,
      ],
    });
    return rows;
  }
}
