import { Injectable } from '@nestjs/common';
import { CatalogService } from '../../catalog/catalog.service.js';
import { formatOid, OidClass } from '../../catalog/oid.js';
import { pathSegment } from '../../files/files.params.js';
import type { AssociationName } from './association-names.js';
import {
  describeLinkClasses,
  describeRelated,
  REPRESENTATION_ROLES,
  type AttributeEntry,
  type FileEntry,
  type RepresentationEntry,
} from './association-entries.js';
import { AssociationsRepository, type RelatedRow } from './associations.repository.js';
import type { AssociationLoader } from './query-associations.port.js';

type Entries = Partial<Record<AssociationName, unknown[]>>;

/**
 * The associations of a page of the query service: for each association asked for, one
 * statement for the whole page (never one per item), each read with the caller's rights, so an
 * object in a container the caller may not read appears in no item's association. Every item
 * gets every association asked for, empty when it has nothing (or is not readable).
 */
@Injectable()
export class QueryAssociations implements AssociationLoader {
  constructor(
    private readonly repo: AssociationsRepository,
    private readonly catalog: CatalogService,
  ) {}

  async load(
    names: readonly AssociationName[],
    items: readonly { id: number; cls: string }[],
    readable: number[] | null,
    base: string,
  ): Promise<Map<number, Entries>> {
    const wanted = [...new Set(names)];
    const out = new Map<number, Entries>();
    const classOf = new Map<number, string>();
    for (const item of items) {
      classOf.set(item.id, item.cls);
      out.set(item.id, Object.fromEntries(wanted.map((name) => [name, []])) as Entries);
    }
    const ids = [...classOf.keys()];
    if (ids.length === 0 || wanted.length === 0) return out;
    const add = (name: AssociationName, item: number, entry: unknown) => out.get(item)?.[name]?.push(entry);
    const fileUrl = (item: number, fileName: string) =>
      `${base}/files/${pathSegment(formatOid(classOf.get(item)!, item))}/${encodeURIComponent(fileName)}`;

    const loaders: Record<AssociationName, () => Promise<void>> = {
      files: async () => {
        for (const f of await this.repo.files(ids, readable, null)) {
          const entry: FileEntry = {
            url: fileUrl(f.item, f.file_name),
            role: f.role,
            filename: f.file_name,
            mimetype: f.mime_type,
            size: Number(f.size),
            oid: formatOid(OidClass.content, f.id),
            sha256: f.sha256,
          };
          add('files', f.item, entry);
        }
      },
      representations: async () => {
        for (const f of await this.repo.files(ids, readable, REPRESENTATION_ROLES)) {
          const entry: RepresentationEntry = {
            role: f.role,
            name: f.file_name,
            url: fileUrl(f.item, f.file_name),
            mimeType: f.mime_type,
          };
          add('representations', f.item, entry);
        }
      },
      ibas: async () => {
        for (const a of await this.repo.attributes(ids, readable)) {
          const entry: AttributeEntry = { name: a.name, value: a.value };
          add('ibas', a.item, entry);
        }
      },
      uses: async () => this.related('uses', await this.repo.uses(ids, readable), add),
      usedBy: async () => this.related('usedBy', await this.repo.usedBy(ids, readable), add),
      describedBy: async () => {
        const classes = describeLinkClasses(await this.catalog.current());
        if (classes.length) this.related('describedBy', await this.repo.describedBy(ids, readable, classes), add);
      },
    };
    // One after the other: a page holds one pooled connection at a time, as every other request.
    for (const name of wanted) await loaders[name]();
    return out;
  }

  private related(
    name: AssociationName,
    rows: RelatedRow[],
    add: (name: AssociationName, item: number, entry: unknown) => void,
  ): void {
    for (const r of rows) add(name, r.item, describeRelated(r));
  }
}
