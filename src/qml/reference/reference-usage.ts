import type { DialectCatalog } from './dialect-catalog.js';
import { QML_ELEMENTS, type ElementSpec } from '../layouts/statement/statement-dialect.js';
import { parseQml, type QmlElement } from '../parse/parse.js';
import { findFunction } from '../functions/functions.js';

/**
 * What a QML document uses of the dialect, as keys shared with the generated reference:
 * `element:column`, `attribute:column@alias`, `value:operator@type=like`, `class:wt.part.WTPart`,
 * `property:<group>:<path>`, `derived:<group>:<path>`, `reference:<group>:<name>`,
 * `link:<name>`, `function:UPPER`, `macro:CURRENT_USER`. A group is a set of classes with the
 * same properties (see classGroups); `<group>` is its first class.
 */
export type UsageKey = string;

export const IBA = 'WCTYPE|<class>~IBA|<name>';
export const MBA = 'WCTYPE|<class>~MBA|<name>';
const CUSTOM = /^WCTYPE\|[^~]+~(IBA|MBA)\|/;

export interface ClassGroup {
  /** The first class of the group: its key in usage keys. */
  id: string;
  classes: DialectCatalog['classes'];
}

/** Classes with the same properties, derived properties and references, in catalog order. */
export function classGroups(catalog: DialectCatalog): ClassGroup[] {
  const groups = new Map<string, ClassGroup>();
  for (const c of catalog.classes) {
    const sig = JSON.stringify([c.properties, c.derived, c.customAttributes, c.references]);
    const g = groups.get(sig);
    if (g) g.classes.push(c);
    else groups.set(sig, { id: c.name, classes: [c] });
  }
  return [...groups.values()];
}

const SPEC = new Map<string, ElementSpec>(QML_ELEMENTS.map((e) => [e.name, e]));

/** The keys of everything a document uses (it must parse; validity is checked elsewhere). */
export function qmlUsage(qml: string, catalog: DialectCatalog): Set<UsageKey> {
  const root = parseQml(qml);
  const groupOf = new Map<string, ClassGroup>();
  for (const g of classGroups(catalog)) for (const c of g.classes) groupOf.set(c.name, g);
  const aliases = new Map<string, string>();
  walk(root, (el) => {
    if (el.name === 'table' && el.attrs.alias) aliases.set(el.attrs.alias.trim(), el.text);
  });
  const used = new Set<UsageKey>();
  const groupOfAlias = (el: QmlElement) => groupOf.get(aliases.get(el.attrs.alias?.trim() ?? '') ?? '');

  walk(root, (el, parent) => {
    used.add(`element:${el.name}`);
    const spec = SPEC.get(el.name);
    for (const a of spec?.attributes ?? []) {
      const raw = el.attrs[a.name]?.trim();
      if (raw !== undefined) used.add(`attribute:${el.name}@${a.name}`);
      if (!a.values) continue;
      const value = raw || a.default;
      if (value) used.add(`value:${el.name}@${a.name}=${el.name === 'orderByItem' ? value.toLowerCase() : value}`);
    }
    if (
      (el.name === 'constant' || el.name === 'parameterDefault') &&
      el.attrs.isMacro?.trim().toLowerCase() === 'true'
    ) {
      used.add(`macro:${el.text}`);
    }
    switch (el.name) {
      case 'table':
        used.add(`class:${el.text}`);
        break;
      case 'column': {
        const g = groupOfAlias(el);
        const path = el.text || el.attrs.propertyName?.trim() || '';
        const custom = CUSTOM.exec(path);
        if (g) used.add(`property:${g.id}:${custom ? (custom[1] === 'IBA' ? IBA : MBA) : path}`);
        break;
      }
      case 'object': {
        const g = groupOfAlias(el);
        const path = chain(el) ?? el.attrs.propertyName?.trim() ?? '';
        const derived = g?.classes[0].derived.some((d) => d.path === path);
        if (g) used.add(path === '' || derived ? `derived:${g.id}:${path}` : `property:${g.id}:${path}`);
        break;
      }
      case 'function':
        used.add(`function:${findFunction(el.attrs.name ?? '')?.name ?? el.attrs.name?.trim().toUpperCase()}`);
        break;
      case 'join': {
        const name = el.attrs.name?.trim() ?? '';
        if (parent?.name === 'linkJoin') used.add(`link:${name}`);
        const g = el.children[0] && groupOfAlias(el.children[0]);
        if (parent?.name === 'referenceJoin' && g) used.add(`reference:${g.id}:${name}`);
        break;
      }
    }
  });
  return used;
}

function walk(
  el: QmlElement,
  visit: (el: QmlElement, parent: QmlElement | null) => void,
  parent: QmlElement | null = null,
) {
  visit(el, parent);
  for (const c of el.children) walk(c, visit, el);
}

function chain(el: QmlElement): string | null {
  const parts: string[] = [];
  for (let p = el.children[0]; p; p = p.children[0]) parts.push(p.attrs.name?.trim() ?? '');
  return parts.length ? parts.join('.') : null;
}

/** Every key the dialect and the catalog define: what the examples together must use. */
export function allUsageKeys(catalog: DialectCatalog, functions: readonly string[], macros: readonly string[]) {
  const keys: UsageKey[] = [];
  for (const e of QML_ELEMENTS) {
    keys.push(`element:${e.name}`);
    for (const a of e.attributes) {
      keys.push(`attribute:${e.name}@${a.name}`);
      for (const v of a.values ?? []) keys.push(`value:${e.name}@${a.name}=${v}`);
    }
  }
  for (const g of classGroups(catalog)) {
    for (const c of g.classes) keys.push(`class:${c.name}`);
    const first = g.classes[0];
    for (const p of first.properties) keys.push(`property:${g.id}:${p.path}`);
    if (first.customAttributes) keys.push(`property:${g.id}:${IBA}`, `property:${g.id}:${MBA}`);
    if (first.derived.length) keys.push(`derived:${g.id}:`);
    for (const d of first.derived) keys.push(`derived:${g.id}:${d.path}`);
    for (const r of first.references) keys.push(`reference:${g.id}:${r.name}`);
  }
  for (const l of catalog.links) keys.push(`link:${l.name}`);
  for (const f of functions) keys.push(`function:${f}`);
  for (const m of macros) keys.push(`macro:${m}`);
  return keys;
}
