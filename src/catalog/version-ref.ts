import { BadRequestException } from '@nestjs/common';
import { parseOid } from './oid.js';

/**
 * Version references: `VR:<class>:<branch id>` names a version (A, B …) of a versioned object
 * rather than one iteration, and stands for that version's latest iteration. The branch id is
 * the id of the version's first iteration (the smallest iteration id of the master and version),
 * so it stays the same while the version gets iterations. Report templates produce it
 * (`versionReference`, `branchIdentifier`); every service that takes an OID takes it too.
 */
export interface VersionRef {
  cls: string;
  branchId: number;
}

/** A `VR:<class>:<branch id>` text, as strict as OIDs are; null for anything else. */
export function parseVersionRef(text: string): VersionRef | null {
  if (!text.startsWith('VR:')) return null;
  const oid = parseOid(`OR:${text.slice(3)}`);
  return oid ? { cls: oid.cls, branchId: oid.id } : null;
}

export function formatVersionRef(cls: string, branchId: number | bigint): string {
  return `VR:${cls}:${branchId}`;
}

/**
 * An `OR:` OID or a `VR:` version reference given where an object is named, as its class and id
 * (`branch`: the id is a version's branch id); null when the text is neither form (a number).
 * A text in either form that is malformed is a 400, naming it as `shown` (e.g. clipped).
 */
export function parseObjectReference(
  text: string,
  shown = `"${text}"`,
): { cls: string; id: number; branch: boolean } | null {
  if (!text.startsWith('OR:') && !text.startsWith('VR:')) return null;
  const vr = parseVersionRef(text);
  const oid = vr ? { cls: vr.cls, id: vr.branchId } : parseOid(text);
  if (!oid) {
    throw new BadRequestException(
      text.startsWith('VR:')
        ? `${shown} is not a version reference (VR:<class>:<branch id>)`
        : `${shown} is not an OID (OR:<class>:<id>)`,
    );
  }
  return { cls: oid.cls, id: oid.id, branch: vr !== null };
}
