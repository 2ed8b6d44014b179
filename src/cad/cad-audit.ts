import type { AuditEvent } from '../audit/audit-events.js';
import { attributeChange } from '../audit/audit-detail.js';
import { masterClassOf } from '../catalog/oid.js';
import type { AttributeChange, AttributeValue } from '../objects/versioned/attributes.js';
import type { NumberingMode } from './cad-params.js';
import type { CadIteration, CadLink } from './cad.repository.js';

/** An event on the CAD document's master (every iteration shares its history). */
function onDocument(userId: number, doc: CadIteration, action: string, detail: Record<string, unknown>): AuditEvent {
  return {
    userId,
    action,
    objectClass: masterClassOf(doc.cls),
    objectId: doc.masterId,
    objectNumber: doc.number,
    containerId: doc.containerId,
    detail: { iteration: `${doc.version}.${doc.iteration}`, ...detail },
  };
}

/** `numbers.attributes`: the names the request gave, before and after; the iteration it made, if any. */
export function attributesEvent(
  userId: number,
  doc: CadIteration,
  change: AttributeChange,
  madeIteration: number | null,
): AuditEvent {
  const from = `${doc.version}.${doc.iteration}`;
  const to = madeIteration === null ? from : `${doc.version}.${madeIteration}`;
  return onDocument(userId, doc, 'numbers.attributes', {
    iteration: to,
    ...(madeIteration !== null && { newIteration: { from, to } }),
    ...attributeChange(doc.attributes, change),
  });
}

/** `numbers.link`: a used link's line number, reference number and attributes, before and after. */
export function linkEvent(
  userId: number,
  doc: CadIteration,
  link: CadLink,
  after: { lineNumber: bigint | null; referenceNumber: string | null; attributes: Record<string, AttributeValue> },
): AuditEvent {
  const before = link.attributes ?? {};
  const value = (attrs: Record<string, AttributeValue>, n: string) => (Object.hasOwn(attrs, n) ? attrs[n] : null);
  const names = new Set([...Object.keys(before), ...Object.keys(after.attributes)]);
  const change: AttributeChange = Object.fromEntries(
    [...names]
      .filter((n) => value(before, n) !== value(after.attributes, n))
      .map((n) => [n, value(after.attributes, n)]),
  );
  const num = (n: bigint | null) => (n === null ? null : Number(n));
  return onDocument(userId, doc, 'numbers.link', {
    link: link.id,
    member: link.memberNumber,
    lineNumber: { before: num(link.lineNumber), after: num(after.lineNumber) },
    referenceNumber: { before: link.referenceNumber, after: after.referenceNumber },
    ...attributeChange(link.attributes, change),
  });
}

/** `numbers.used`: how the links were numbered, and how many got a number. */
export function usedEvent(
  userId: number,
  doc: CadIteration,
  opts: { mode: NumberingMode; start: number; step: number },
  numbered: number,
): AuditEvent {
  return onDocument(userId, doc, 'numbers.used', { mode: opts.mode, start: opts.start, step: opts.step, numbered });
}
