import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { PermissionsService } from '../auth/permissions.service.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { formatOid } from '../catalog/oid.js';
import type { PlainObjectDto } from './dto/catalog-object.dto.js';
import { PlainObjectsService } from './plain/plain-objects.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { ObjectTypeQueryDto, ReadObjectQueryDto } from './dto/object-request.dto.js';
import type { IterationListDto, ObjectDto } from './dto/object-response.dto.js';
import type { StructureDto, StructureNodeDto } from './dto/structure-response.dto.js';
import type { StructureQueryDto } from './dto/structure-query.dto.js';
import { pickReadable } from './versioned/object-access.js';
import { describeObject } from './versioned/object-answers.js';
import { parseVersionParam } from './versioned/object-input.js';
import { parseLevels, parseObjectRef, parseVersionedRef } from '../catalog/object-ref.js';
import { ObjectsRepository } from './versioned/objects.repository.js';
import { StructureRepository, type Direction, type ObjectRow, type WalkRow } from './structure/structure.repository.js';

/** Deepest walk `levels=max` asks for: real structures are far shallower, answers stay nestable. */
export const MAX_LEVELS = 100;

/** Reads of business objects: an iteration, all iterations, the structure below and the objects using it. */
@Injectable()
export class ObjectsService {
  constructor(
    private readonly repo: StructureRepository,
    private readonly objects: ObjectsRepository,
    private readonly permissions: PermissionsService,
    private readonly plain: PlainObjectsService,
    private readonly catalog: CatalogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The latest iteration, or the one `version` names (A: that version's latest, A.2). */
  async read(user: AuthUser, text: string, query: ReadObjectQueryDto): Promise<ObjectDto | PlainObjectDto> {
    const plain = await this.plain.refOf(text, query.type);
    if (plain) {
      if (query.version !== undefined) throw new BadRequestException(`version: ${plain.text} is not versioned`);
      return this.plain.read(user, plain);
    }
    const ref = parseVersionedRef(await this.catalog.current(), text, query.type);
    const pick = query.version === undefined ? null : parseVersionParam(query.version);
    const found = pickReadable(user, ref.text, await this.objects.findByRef(ref, user.id));
    if (pick === null) return describeObject(found);
    const one = await this.objects.findInMaster(found.masterId, pick, user.id);
    if (!one)
      throw new NotFoundException(
        `${found.number} has no ${pick.iteration === null ? 'version' : 'iteration'} ${query.version}`,
      );
    return describeObject(one);
  }

  async iterations(user: AuthUser, text: string, query: ObjectTypeQueryDto): Promise<IterationListDto> {
    const ref = parseVersionedRef(await this.catalog.current(), text, query.type);
    const found = pickReadable(user, ref.text, await this.objects.findByRef(ref, user.id));
    const items = (await this.objects.listIterations(found.masterId, user.id)).map(describeObject);
    return { number: found.number, class: found.cls, count: items.length, items };
  }

  structure(user: AuthUser, ref: string, query: StructureQueryDto): Promise<StructureDto> {
    return this.walk(user, ref, query, 'down');
  }

  whereUsed(user: AuthUser, ref: string, query: StructureQueryDto): Promise<StructureDto> {
    return this.walk(user, ref, query, 'up');
  }

  private async walk(user: AuthUser, text: string, query: StructureQueryDto, direction: Direction) {
    const ref = parseObjectRef(text, query.type);
    const levels = parseLevels(query.levels, MAX_LEVELS);
    const readable = await this.permissions.readableContainerIds(user);
    const root = findReadable(ref.text, await this.repo.findObjects(ref, user.id), readable);
    const limit = this.config.objectsStructureMaxNodes;
    const rows = await this.repo.walk(root, direction, levels, readable, limit + 1);
    const truncated = rows.length > limit;
    const kept = truncated ? rows.slice(0, limit) : rows;
    return { levels, nodes: kept.length, nodeLimit: limit, truncated, root: buildTree(kept) };
  }
}

/** The one object the reference names that the caller may read; unreadable ones do not exist. */
function findReadable(text: string, found: ObjectRow[], readable: readonly number[] | null): ObjectRow {
  const visible = found.filter((r) => readable === null || readable.includes(r.container_id));
  if (visible.length === 0) throw new NotFoundException(`no object "${text}"`);
  if (visible.length > 1) {
    throw new BadRequestException(
      `several objects carry the number "${text}" (${visible.map((r) => r.cls).join(', ')}): give type`,
    );
  }
  return visible[0];
}

/** Nests the rows of a walk (found level by level) below their parents, siblings in line-number order. */
export function buildTree(rows: WalkRow[]): StructureNodeDto {
  const byPath = new Map<string, StructureNodeDto>();
  for (const row of rows) {
    const node = toNode(row);
    byPath.set(row.lpath.join('/'), node);
    if (row.depth > 0) byPath.get(row.lpath.slice(0, -1).join('/'))?.children.push(node);
  }
  const sortChildren = (n: StructureNodeDto): void => {
    n.children.sort(compareNodes);
    n.children.forEach(sortChildren);
  };
  const root = byPath.get('')!;
  sortChildren(root);
  return root;
}

function compareNodes(a: StructureNodeDto, b: StructureNodeDto): number {
  const la = a.link?.lineNumber ?? Number.MAX_SAFE_INTEGER;
  const lb = b.link?.lineNumber ?? Number.MAX_SAFE_INTEGER;
  if (la !== lb) return la - lb;
  const na = a.number ?? '';
  const nb = b.number ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return (a.link?.oid ?? '') < (b.link?.oid ?? '') ? -1 : 1;
}

function toNode(row: WalkRow): StructureNodeDto {
  const node: StructureNodeDto = {
    level: row.depth,
    oid: null,
    number: null,
    name: null,
    class: null,
    subtype: null,
    version: null,
    iteration: null,
    state: null,
    children: [],
  };
  if (row.link_id !== null) {
    node.link = {
      oid: formatOid(row.link_class!, row.link_id),
      quantity: row.quantity!,
      unit: row.unit!,
      lineNumber: row.line_number === null ? null : Number(row.line_number),
    };
  }
  if (!row.readable) {
    node.restricted = true;
    return node;
  }
  Object.assign(node, {
    oid: row.iteration_id === null ? null : formatOid(row.cls, row.iteration_id),
    number: row.number,
    name: row.name,
    class: row.cls,
    subtype: row.subtype,
    version: row.version,
    iteration: row.iteration,
    state: row.state,
  });
  if (row.is_cycle) node.cycle = true;
  return node;
}
