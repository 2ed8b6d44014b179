import { readdirSync, readFileSync } from 'node:fs';
import { isQueryLayout } from './query/query-layout.js';
import { parseQml, type QmlElement } from '../parse/parse.js';

/**
 * What the compiler did with the elements of documents it accepted, for the tests that hold the
 * dialect lists (statement/statement-dialect.ts, query/query-dialect.ts) to the compiler's
 * behaviour: which elements occurred with which children, and which attributes the compiler
 * looked up on each (whether the document gave them or not).
 */
export class ElementLog {
  /** Per element name: the names of the children it had. */
  readonly children = new Map<string, Set<string>>();
  /** Per element name: the attributes looked up. */
  readonly reads = new Map<string, Set<string>>();

  /** A copy of the tree whose elements record here what happens to them. */
  watch(el: QmlElement): QmlElement {
    const children = entry(this.children, el.name);
    for (const c of el.children) children.add(c.name);
    const reads = entry(this.reads, el.name);
    const attrs = new Proxy(el.attrs, {
      get: (target, key) => {
        if (typeof key === 'string') reads.add(key);
        return Reflect.get(target, key) as unknown;
      },
      has: (target, key) => {
        if (typeof key === 'string') reads.add(key);
        return Reflect.has(target, key);
      },
    });
    return { ...el, attrs, children: el.children.map((c) => this.watch(c)) };
  }
}

function entry(map: Map<string, Set<string>>, name: string): Set<string> {
  let set = map.get(name);
  if (!set) map.set(name, (set = new Set()));
  return set;
}

const EXAMPLES = new URL('../../../docs/examples/', import.meta.url);

/** The example templates of the user documentation (docs/examples) in one layout, parsed. */
export function exampleDocuments(layout: 'statement' | 'query'): QmlElement[] {
  return readdirSync(EXAMPLES)
    .filter((file) => file.endsWith('.qml'))
    .map((file) => parseQml(readFileSync(new URL(file, EXAMPLES))))
    .filter((root) => isQueryLayout(root) === (layout === 'query'));
}

/** The first element of that name in the tree (depth first), or null. */
export function firstElement(root: QmlElement, name: string): QmlElement | null {
  if (root.name === name) return root;
  for (const c of root.children) {
    const found = firstElement(c, name);
    if (found) return found;
  }
  return null;
}

/** An element no list names, to put where the compiler must refuse it. */
export function unlistedChild(parent: QmlElement): QmlElement {
  return { name: 'unlisted', attrs: {}, children: [], text: '', path: `${parent.path}/unlisted` };
}
