import type { AuthUser } from '../../auth/auth-user.js';
import { formatOid, masterClassOf } from '../../catalog/oid.js';
import { formatVersionRef } from '../../catalog/version-ref.js';
import type { ObjectDto, ObjectUseDto } from '../dto/object-response.dto.js';
import { mayRead } from './object-access.js';
import type { ObjectRecord } from './object-records.repository.js';
import type { LinkRecord } from '../structure/usage-links.repository.js';

/** Answers of the objects service, mapped explicitly from the rows. */

export function describeObject(r: ObjectRecord): ObjectDto {
  return {
    oid: formatOid(r.cls, r.iterationId),
    masterOid: formatOid(masterClassOf(r.cls), r.masterId),
    versionReference: formatVersionRef(r.cls, r.branchId),
    number: r.number,
    name: r.name,
    type: r.softType ?? r.cls,
    class: r.cls,
    softType: r.softType,
    subtype: r.subtype,
    version: r.version,
    iteration: r.iteration,
    latest: r.latest,
    state: r.state,
    title: r.title,
    description: r.description,
    note: r.note,
    container: { oid: formatOid(r.containerClass, r.containerId), name: r.containerName },
    attributes: r.attributes ?? {},
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    modifiedBy: r.modifiedBy,
    modifiedAt: r.modifiedAt,
    isCheckedOut: r.checkedOutById !== null,
    checkedOutBy: r.checkedOutBy,
    workingCopy: r.working,
  };
}

/** A link of `parent`'s iteration; a member the caller may not read is shown without its details. */
export function describeUse(
  user: AuthUser,
  link: LinkRecord,
  parent: { cls: string; iterationId: number },
): ObjectUseDto {
  const readable = mayRead(user, link.memberRole);
  return {
    id: link.id,
    oid: formatOid(link.cls, link.id),
    parent: formatOid(parent.cls, parent.iterationId),
    member: readable
      ? {
          oid: link.memberIterationId === null ? null : formatOid(link.memberClass, link.memberIterationId),
          number: link.memberNumber,
          name: link.memberName,
        }
      : { oid: null, number: null, name: null, restricted: true },
    quantity: link.quantity,
    unit: link.unit,
    lineNumber: link.lineNumber === null ? null : Number(link.lineNumber),
  };
}
