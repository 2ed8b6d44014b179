import { formatOid, OidClass } from '../catalog/oid.js';
import type { PublicUserRecord } from '../auth/users.repository.js';
import type { ObjectListRow } from '../objects/versioned/object-lists.repository.js';
import type { ObjectRecord } from '../objects/versioned/object-records.repository.js';
import type {
  ObjectItemDto,
  ObjectPointerDto,
  PrincipalDto,
  ApiUserItemDto,
  UserPointerDto,
} from './dto/object-api-response.dto.js';
import type { ObjectResource } from './object-api-params.js';
import type { WithoutRuntime } from '../common/answers-runtime.js';

/**
 * The answers of api/1.0 in the original gateway's shapes, mapped explicitly from the rows.
 * `base` is the service's public address (PUBLIC_URL or the request's host, with BASE_PATH).
 */

/** Times as the original wrote them: UTC, to the second, without zone (2026-03-04T16:30:00). */
export function apiTime(d: Date): string {
  return d.toISOString().slice(0, 19);
}

export function objectUrl(base: string, resource: ObjectResource, oid: string): string {
  return `${base}/api/1.0/${resource}/${oid}`;
}

export function userUrl(base: string, id: number): string {
  return `${base}/api/1.0/users/${formatOid(OidClass.user, id)}`;
}

export function objectPointer(base: string, resource: ObjectResource, row: ObjectListRow): ObjectPointerDto {
  const oid = formatOid(row.cls, row.iterationId);
  return { oid, name: row.name, number: row.number, url: objectUrl(base, resource, oid) };
}

export function userPointer(base: string, u: PublicUserRecord): UserPointerDto {
  return { oid: formatOid(OidClass.user, u.id), name: u.name, url: userUrl(base, u.id) };
}

/** A creator or modifier: there is no other view of a user than api/1.0's, so `details` is its `url`. */
export function principal(base: string, id: number, name: string): PrincipalDto {
  const url = userUrl(base, id);
  return { oid: formatOid(OidClass.user, id), url, details: url, name };
}

export function userItem(base: string, u: PublicUserRecord): WithoutRuntime<ApiUserItemDto> {
  const url = userUrl(base, u.id);
  return { oid: formatOid(OidClass.user, u.id), url, details: url, name: u.name, fullName: u.fullName };
}

/**
 * An iteration as the original's item answer: the top-level summary and `item` with the details
 * clients read (`isLatestIteration`, `isCheckedOut`, `version`, `state`). Objects are in no
 * folders here: the location is the container (`/Drive Unit`, the catalog's `folderPath`), the
 * path the location and the name. A CAD document's `cadname` is its name (the file name), its
 * `doctype` its subtype. Nothing is ever checked out.
 */
export function objectItem(base: string, resource: ObjectResource, r: ObjectRecord): WithoutRuntime<ObjectItemDto> {
  const oid = formatOid(r.cls, r.iterationId);
  const cad = resource === 'epmdocuments';
  const version = `${r.version}.${r.iteration}`;
  const location = `/${r.containerName}`;
  const path = `${location}/${r.name}`;
  const modified = apiTime(r.modifiedAt);
  return {
    oid,
    url: objectUrl(base, resource, oid),
    details: `${base}/objects/${oid}`,
    name: r.name,
    number: r.number,
    ...(cad && { cadname: r.name }),
    version,
    modified,
    path,
    item: {
      oid,
      name: r.name,
      number: r.number,
      ...(cad && { cadname: r.name, doctype: r.subtype }),
      type: r.softType ?? r.cls,
      state: r.state,
      version,
      location,
      path,
      created: apiTime(r.createdAt),
      modified,
      creator: principal(base, r.createdById, r.createdBy),
      modifier: principal(base, r.modifiedById, r.modifiedBy),
      isCheckedOut: false,
      isLatestIteration: r.latest,
    },
  };
}
