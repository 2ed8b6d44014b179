import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../auth/auth-user.js';
import { PermissionsService } from '../../auth/permissions.service.js';
import { parseVersionedRef } from '../../catalog/object-ref.js';
import { CatalogService } from '../../catalog/catalog.service.js';
import { mayRead, pickReadable } from '../versioned/object-access.js';
import { ObjectsRepository } from '../versioned/objects.repository.js';
import { relatedLinkClasses, type RelatedLinkClasses } from './related-link-classes.js';
import { RelatedObjectsRepository, type Relation } from './related-objects.repository.js';

export { RELATIONS, type Relation } from './related-objects.repository.js';

/** One object of a collection. */
export interface CollectedObject {
  iterationId: number;
  masterId: number;
  cls: string;
  /** Empty for an object the caller may not read: its number and version are not told. */
  number: string;
  version: string;
  iteration: number;
  /** How it was reached (null: the root), and from which object (its index in the list). */
  via: Relation | null;
  parent: number | null;
  /** false: in a container the caller may not read; listed, never followed. */
  readable: boolean;
}

export interface CollectRequest {
  /** OID, VR: reference or number of a versioned object (a part, CAD document, document, change order …). */
  root: string;
  type?: string;
  follow: ReadonlySet<Relation>;
  /** Levels of usage links (structure, members) followed below the root and below each affected object. */
  levels: number;
  /** Stop once more than this many readable objects are found. */
  maxObjects: number;
}

export interface Collection {
  objects: CollectedObject[];
  /** More than maxObjects readable objects: the list stops there. */
  exceeded: boolean;
}

/**
 * The objects a collection names, from a root: the structure below it (part usage links, CAD
 * members) level by level, the documents describing and referenced by each part, the CAD
 * documents (drawings) built from it, and a change's affected objects, which are followed like
 * the root. Each relation follows its link classes and those users declared below them (see
 * relatedLinkClasses). Each object once (the first path that reaches it), breadth first. An object in a
 * container the caller may not read is listed as not readable and not followed; a link the
 * caller may not read is not followed at all.
 */
@Injectable()
export class RelatedObjectsService {
  constructor(
    private readonly objects: ObjectsRepository,
    private readonly related: RelatedObjectsRepository,
    private readonly catalog: CatalogService,
    private readonly permissions: PermissionsService,
  ) {}

  async collect(user: AuthUser, request: CollectRequest): Promise<Collection> {
    const catalog = await this.catalog.current();
    const ref = parseVersionedRef(catalog, request.root, request.type);
    const root = pickReadable(user, request.root, await this.objects.findByRef(ref, user.id));
    const readable = await this.permissions.readableContainerIds(user);
    const objects: CollectedObject[] = [
      {
        iterationId: root.iterationId,
        masterId: root.masterId,
        cls: root.cls,
        number: root.number,
        version: root.version,
        iteration: root.iteration,
        via: null,
        parent: null,
        readable: true,
      },
    ];
    const index = new Map<number, number>([[root.iterationId, 0]]);
    let count = 1;
    const classes = followed(relatedLinkClasses(catalog), request.follow);
    let frontier = [{ iterationId: root.iterationId, depth: 0 }];
    while (frontier.length > 0) {
      const rows = await this.related.step({
        from: frontier,
        levels: request.levels,
        classes,
        affectedFrom: request.follow.has('affected') ? root.iterationId : null,
        userId: user.id,
        readable,
      });
      const depthOf = new Map(frontier.map((f) => [f.iterationId, f.depth]));
      const next: typeof frontier = [];
      for (const row of rows) {
        if (index.has(row.iteration_id)) continue;
        const visible = mayRead(user, row.member_role);
        index.set(row.iteration_id, objects.length);
        objects.push({
          iterationId: row.iteration_id,
          masterId: row.master_id,
          cls: row.cls,
          number: visible ? row.number : '',
          version: visible ? row.version : '',
          iteration: visible ? row.iteration : 0,
          via: row.via,
          parent: index.get(row.from_id)!,
          readable: visible,
        });
        if (!visible) continue;
        if (++count > request.maxObjects) return { objects, exceeded: true };
        // Documents and drawings are collected, not followed further.
        if (row.via === 'documents' || row.via === 'drawings') continue;
        const depth = row.via === 'affected' ? 0 : depthOf.get(row.from_id)! + 1;
        next.push({ iterationId: row.iteration_id, depth });
      }
      frontier = next;
    }
    return { objects, exceeded: false };
  }
}

/** The link classes of the relations followed; none for the others. */
function followed(all: RelatedLinkClasses, follow: ReadonlySet<Relation>): RelatedLinkClasses {
  const when = (relation: Relation, classes: readonly string[]) => (follow.has(relation) ? classes : []);
  return {
    structure: when('structure', all.structure),
    members: when('members', all.members),
    documents: when('documents', all.documents),
    documentMasters: when('documents', all.documentMasters),
    drawings: when('drawings', all.drawings),
    includedIn: when('affected', all.includedIn),
    affected: when('affected', all.affected),
  };
}
