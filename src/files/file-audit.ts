import type { AuditEvent } from '../audit/audit-events.js';
import { masterClassOf } from '../catalog/oid.js';
import type { ContentItemRecord, HolderRecord } from './files.repository.js';

/** A file as an audit event describes it: never its bytes. */
interface FileFacts {
  role: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/**
 * The audit event of one file change: `files.upload` (a new file), `files.replace` (new content
 * of an existing one) or `files.delete`, on the business object's master, with the file's role,
 * type, size and digest before and after, and the iteration it made when it made one.
 */
export function fileChangeEvent(change: {
  userId: number;
  holder: HolderRecord;
  fileName: string;
  before: ContentItemRecord | null;
  after: FileFacts | null;
  madeIteration: number | null;
}): AuditEvent {
  const { holder, before, after, madeIteration } = change;
  const action = after === null ? 'files.delete' : before ? 'files.replace' : 'files.upload';
  const iteration = `${holder.version}.${madeIteration ?? holder.iteration}`;
  return {
    userId: change.userId,
    action,
    objectClass: masterClassOf(holder.cls),
    objectId: holder.masterId,
    objectNumber: holder.number,
    containerId: holder.containerId,
    detail: {
      fileName: change.fileName,
      iteration,
      ...(madeIteration !== null && { newIteration: { from: `${holder.version}.${holder.iteration}`, to: iteration } }),
      ...(before && { before: facts(before) }),
      ...(after && { after: facts(after) }),
    },
  };
}

function facts(f: FileFacts): FileFacts {
  return { role: f.role, mimeType: f.mimeType, size: f.size, sha256: f.sha256 };
}
