import { BadRequestException } from '@nestjs/common';
import type { Catalog } from '../catalog/catalog.js';
import { notNumberedReason, numberedClass } from './numbered-type.js';
import type { NumberedClass } from './numbers.repository.js';
import { clip } from '../common/clip.js';

/** The class name of the path and the class whose numbering rule applies to it. */
export interface ClassNameParam {
  /** As given, e.g. `wt.doc.WTDocument|com.acme.Spec`. */
  name: string;
  /** The class whose rule numbers it, e.g. `wt.doc.WTDocument`, and where its objects keep their numbers. */
  rule: NumberedClass;
}

const TYPE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;
const MAX_CLASS_NAME = 400;

const NUMBERED =
  'numbers are generated for wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart, the other versioned and ' +
  'plain classes of the catalog (wt.change2.WTChangeOrder2, wt.workflow.engine.WfProcess …) and their soft ' +
  'subtypes written <class>|<subtype>, e.g. wt.doc.WTDocument|com.acme.Spec';

/**
 * Accepts the classes POST /objects makes objects of (see numberedClass: documents, CAD documents,
 * parts, the catalog's other versioned classes, plain classes, a dataset's too), a soft type of
 * one named alone (`com.acme.SoftwarePart`), or one of those classes followed by soft subtypes,
 * `<class>|<subtype>[|<subtype>…]`, declared or not; the `WCTYPE|` prefix of external type
 * identifiers is allowed. Subtypes share the numbering rule of their class.
 */
export function parseClassName(catalog: Catalog, name: string): ClassNameParam {
  const parts = name.length <= MAX_CLASS_NAME ? name.replace(/^WCTYPE\|/, '').split('|') : [];
  const [head = '', ...subtypes] = parts;
  const wellFormed = TYPE_NAME.test(head) && subtypes.every((s) => TYPE_NAME.test(s));
  // Before a `|` only a class may stand: `com.acme.Spec|wt.doc.WTDocument` names nothing.
  if (!wellFormed || (subtypes.length > 0 && !catalog.findClass(head))) throw unknownClass(name);
  const rule = numberedClass(catalog, head);
  if (rule) return { name, rule };
  const why = notNumberedReason(catalog, head);
  if (why === null) throw unknownClass(name);
  throw new BadRequestException(`class '${clip(name)}' cannot be numbered: ${why}; ${NUMBERED}`);
}

function unknownClass(name: string): BadRequestException {
  return new BadRequestException(`unknown class '${clip(name)}': ${NUMBERED}`);
}
