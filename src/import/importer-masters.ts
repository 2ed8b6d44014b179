import type { Catalog } from '../catalog/catalog.js';
import type { ObjectsImportService } from '../objects/objects-import.service.js';
import type { JsonScalar } from './dataset-catalog.js';
import type { DatasetMasterValues, DatasetRef, IdRef } from './dataset.js';
import { referenceValues, resolveRef } from './importer-catalog.js';

/** One value given for a master's JSON: plain, a number given as a reference, or a reference of the master class. */
type Given =
  { value: JsonScalar } | { id: IdRef } | { ref: DatasetRef; name: string; masterClass: string; path: string };

/**
 * What versioned records give their masters (`master`, and their properties the catalog keeps on
 * the master), gathered over the dataset. The iterations of one object share its master, so a
 * later record wins for a key it gives. Written into `masters.attributes` once every record is
 * stored (references may name later records), merged: a key no record gives keeps its value.
 */
export class MasterValues {
  private readonly byMaster = new Map<number, Map<string, Given>>();

  /** The values one record (at `path`, `objects[3]`) gives the master `masterId` of class `masterClass`. */
  add(masterId: number, masterClass: string, catalog: Catalog, values: DatasetMasterValues, path: string): void {
    let given = this.byMaster.get(masterId);
    if (!given) this.byMaster.set(masterId, (given = new Map()));
    for (const [key, value] of Object.entries(values.props)) given.set(key, { value });
    for (const id of values.ids) given.set(id.key, { id });
    const cls = catalog.findClass(masterClass)!;
    for (const [name, ref] of Object.entries(values.references)) {
      const from = cls.references.get(name)!.from;
      const key = 'json' in from ? from.json.key : 'oidJson' in from ? from.oidJson.key : null;
      if (key !== null) given.set(key, { ref, name, masterClass, path: `${path}.master` });
    }
  }

  /** Resolves the references given and writes every master's values (a master whose JSON holds them already is left alone). */
  async write(objects: ObjectsImportService, catalog: Catalog): Promise<void> {
    for (const [masterId, given] of this.byMaster) {
      const json: Record<string, JsonScalar> = {};
      for (const [key, g] of given) {
        if ('value' in g) json[key] = g.value;
        else if ('id' in g) json[key] = (await resolveRef(objects, catalog, g.id.ref.class, g.id.ref, g.id.path)).id;
        else Object.assign(json, await referenceValues(objects, catalog, g.masterClass, { [g.name]: g.ref }, g.path));
      }
      await objects.mergeMasterAttributes(masterId, json);
    }
  }
}
