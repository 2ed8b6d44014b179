import { LRUCache } from 'lru-cache';
import type { Catalog } from '../catalog/catalog.js';
import type { QmlTemplate } from '../qml/qml-compiler.js';

/** Stored templates kept compiled at most (the least recently run go first). */
const STORED_MAX = 1000;
/** Inline documents kept compiled at most, and the longest kept. */
const INLINE_MAX = 200;
const INLINE_MAX_CHARS = 64 * 1024;

/**
 * Compiled report templates: stored ones by id, reused while their QML and the catalog are
 * unchanged, and inline documents by their text (scripts send the same QML again and again).
 */
export class TemplateCache {
  private readonly stored = new LRUCache<number, { qml: string; template: QmlTemplate }>({ max: STORED_MAX });
  private readonly inline = new LRUCache<string, QmlTemplate>({ max: INLINE_MAX });

  /** The stored template `id` with this QML, compiled by `compile` unless it is kept. */
  storedTemplate(id: number, qml: string, catalog: Catalog, compile: () => QmlTemplate): QmlTemplate {
    const hit = this.stored.get(id);
    if (hit && hit.qml === qml && hit.template.catalog === catalog) return hit.template;
    const template = compile();
    this.stored.set(id, { qml, template });
    return template;
  }

  /** An inline document, compiled by `compile` unless it is kept. */
  inlineTemplate(qml: string, catalog: Catalog, compile: () => QmlTemplate): QmlTemplate {
    const hit = this.inline.get(qml);
    if (hit && hit.catalog === catalog) return hit;
    const template = compile();
    if (qml.length <= INLINE_MAX_CHARS) this.inline.set(qml, template);
    return template;
  }

  /** Drops a stored template (it was deleted). */
  forget(id: number): void {
    this.stored.delete(id);
  }
}
