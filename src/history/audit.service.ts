import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { requireAdmin } from '../auth/admin-access.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { Catalog } from '../catalog/catalog.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { PermissionsService } from '../auth/permissions.service.js';
import { BUSINESS_CLASSES, formatOid, masterClassOf, OidClass, parseOid } from '../catalog/oid.js';
import { parseObjectRef } from '../catalog/object-ref.js';
import {
  HistoryRepository,
  type EventFilter,
  type EventRow,
  type MasterKey,
  type MasterRow,
} from './history.repository.js';
import { withHiddenMember } from './event-references.js';
import type { AuditEventDto, AuditEventListDto, EventsQueryDto, HistoryDto, HistoryQueryDto } from './dto/audit.dto.js';

/** The OID class of audit events (wt.audit.AuditRecord in the type catalog). */
export const AUDIT_RECORD_CLASS = OidClass.auditRecord;

/**
 * The audit events services record with every write (audit.repository.ts): the history of one
 * business object for those who may read it (404 otherwise, as for an object that does not
 * exist), and every event for administrators, filtered.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly repo: HistoryRepository,
    private readonly permissions: PermissionsService,
    private readonly catalog: CatalogService,
  ) {}

  async history(user: AuthUser, ref: string, query: HistoryQueryDto): Promise<HistoryDto> {
    const { master, readable } = await this.readableMaster(user, ref, query.type);
    const filter: EventFilter = { object: { kind: 'id', cls: masterClassOf(master.cls), id: master.id } };
    // Administrators read every member; anyone else only those in containers they read.
    const reader = readable === null ? undefined : { readable, cls: master.cls };
    const { total, rows } = await this.repo.page(filter, (query.page - 1) * query.limit, query.limit, reader);
    return {
      count: rows.length,
      total,
      page: query.page,
      limit: query.limit,
      object: {
        oid: formatOid(masterClassOf(master.cls), master.id),
        class: master.cls,
        number: master.number,
        name: master.name,
        container: master.container,
      },
      items: rows.map(eventDto),
    };
  }

  async list(user: AuthUser, query: EventsQueryDto): Promise<AuditEventListDto> {
    requireAdmin(user);
    const filter: EventFilter = {};
    if (query.object !== undefined) filter.object = objectFilter(await this.catalog.current(), query.object);
    if (query.user !== undefined) filter.userName = query.user.normalize('NFC');
    if (query.from !== undefined) filter.from = new Date(query.from);
    if (query.to !== undefined) filter.to = new Date(query.to);
    if (filter.from && filter.to && filter.from > filter.to) {
      throw new BadRequestException(`from (${query.from}) is after to (${query.to})`);
    }
    if (query.action !== undefined) {
      const prefix = query.action.endsWith('*');
      filter.action = { text: prefix ? query.action.slice(0, -1) : query.action, prefix };
    }
    const { total, rows } = await this.repo.page(filter, (query.page - 1) * query.limit, query.limit);
    return { count: rows.length, total, page: query.page, limit: query.limit, items: rows.map(eventDto) };
  }

  /** The master the reference names, if the caller may read it (404 otherwise), and what the caller reads. */
  private async readableMaster(
    user: AuthUser,
    text: string,
    type: string | undefined,
  ): Promise<{ master: MasterRow; readable: number[] | null }> {
    const found = await this.repo.findMasters(masterKey(await this.catalog.current(), text, type));
    const readable = await this.permissions.readableContainerIds(user);
    const visible = found.filter((m) => readable === null || readable.includes(m.container_id));
    if (visible.length === 0) throw new NotFoundException(`no object "${text}"`);
    if (visible.length > 1) {
      throw new BadRequestException(
        `several objects carry the number "${text}" (${visible.map((m) => m.cls).join(', ')}): give type`,
      );
    }
    return { master: visible[0], readable };
  }
}

/**
 * A master OID (OR:wt.part.WTPartMaster:<id>) directly; anything else as /objects reads a
 * versioned object (documents, parts, CAD documents, change objects, classes of storage
 * iteration a dataset declared …).
 */
function masterKey(catalog: Catalog, text: string, type: string | undefined): MasterKey {
  const versioned = catalog.concreteClasses('iteration');
  const oid = parseOid(text);
  const iterationClass = oid && versioned.find((c) => masterClassOf(c) === oid.cls);
  if (oid && iterationClass) {
    if (type !== undefined && type !== iterationClass) {
      throw new BadRequestException(`type ${type} contradicts the OID's class ${oid.cls}`);
    }
    return { kind: 'master', cls: iterationClass, id: oid.id };
  }
  if (oid && !versioned.includes(oid.cls)) {
    throw new BadRequestException(
      `histories are those of versioned objects (${BUSINESS_CLASSES.join(', ')}, change objects …) and their ` +
        `masters, not of ${oid.cls}; administrators list the events of anything else with GET /admin/events?object=<OID>`,
    );
  }
  const ref = parseObjectRef(text, type, versioned);
  return ref.kind === 'oid' ? { kind: 'iteration', cls: ref.cls, id: ref.id } : ref;
}

/** The `object` filter: an iteration OID stands for its master, another OID for itself, else a number or name. */
function objectFilter(catalog: Catalog, text: string): NonNullable<EventFilter['object']> {
  if (!text.startsWith('OR:')) return { kind: 'number', number: text };
  const oid = parseOid(text);
  if (!oid) throw new BadRequestException(`object "${text}" is not an OID (OR:<class>:<id>)`);
  if (catalog.concreteClasses('iteration').includes(oid.cls)) {
    return { kind: 'iteration', cls: oid.cls, masterCls: masterClassOf(oid.cls), id: oid.id };
  }
  return { kind: 'id', cls: oid.cls, id: oid.id };
}

function eventDto(row: EventRow): AuditEventDto {
  return {
    oid: formatOid(AUDIT_RECORD_CLASS, row.id),
    at: row.at.toISOString(),
    user: row.user_name,
    action: row.action,
    object: row.object_class === null || row.object_id === null ? null : formatOid(row.object_class, row.object_id),
    number: row.object_number,
    container: row.container,
    detail: withHiddenMember(row.detail, row.member_hidden),
  };
}
