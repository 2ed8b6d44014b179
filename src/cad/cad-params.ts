import { BadRequestException } from '@nestjs/common';
import { OidClass } from '../catalog/oid.js';
import { parseObjectReference } from '../catalog/version-ref.js';
import { clip } from '../common/clip.js';

/**
 * The parameters of the number service's attribute and `used` operations, checked without the
 * database. A number names a CAD document (wt.epm.EPMDocument); an OID names one iteration.
 */
/** `branch`: a version reference (VR:<class>:<branch id>): the latest iteration of that version. */
export type CadRef =
  { kind: 'iteration'; text: string; id: number; branch?: boolean } | { kind: 'number'; text: string };

export function parseCadRef(text: string): CadRef {
  const oid = parseObjectReference(text, `oid_or_number "${clip(text)}"`);
  if (oid) {
    if (oid.cls !== OidClass.cadDocument) {
      throw new BadRequestException(
        `oid_or_number ${text} is not a CAD document: attributes and used links are kept for ${OidClass.cadDocument}`,
      );
    }
    return { kind: 'iteration', text, id: oid.id, ...(oid.branch && { branch: true }) };
  }
  if (text.trim() === '' || text.length > 200) {
    throw new BadRequestException('oid_or_number must be an OID or a number of 1 to 200 characters');
  }
  return { kind: 'number', text };
}

export type NumberingMode = 'missing' | 'all';

export interface NumberingPlanLink {
  id: number;
  lineNumber: bigint | null;
  memberNumber: string;
}

/**
 * The line numbers to give the links of an assembly's used relation, as [link id, number]
 * pairs. `all`: every link, ordered by its current line number (links without one last), then
 * by member number, then link id, gets start, start + step, … . `missing`: only links without a
 * line number, ordered by member number then link id, numbered on from the highest existing line
 * number + step (from start when that is higher or there is none), so they never repeat one.
 */
export function planLineNumbers(
  links: NumberingPlanLink[],
  mode: NumberingMode,
  start: bigint,
  step: bigint,
): [number, bigint][] {
  const byMember = (a: NumberingPlanLink, b: NumberingPlanLink) =>
    a.memberNumber < b.memberNumber ? -1 : a.memberNumber > b.memberNumber ? 1 : a.id - b.id;
  if (mode === 'all') {
    const ordered = [...links].sort((a, b) => {
      if (a.lineNumber !== b.lineNumber) {
        if (a.lineNumber === null) return 1;
        if (b.lineNumber === null) return -1;
        return a.lineNumber < b.lineNumber ? -1 : 1;
      }
      return byMember(a, b);
    });
    return ordered.map((l, i) => [l.id, start + BigInt(i) * step]);
  }
  const existing = links.filter((l) => l.lineNumber !== null).map((l) => l.lineNumber as bigint);
  const highest = existing.reduce<bigint | null>((m, n) => (m === null || n > m ? n : m), null);
  const first = highest === null || highest + step < start ? start : highest + step;
  return links
    .filter((l) => l.lineNumber === null)
    .sort(byMember)
    .map((l, i) => [l.id, first + BigInt(i) * step]);
}
