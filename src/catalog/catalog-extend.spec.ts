import { Catalog } from './catalog.js';
import { mergeExtension } from './catalog-extend.js';
import { checkUserTypes, standardCatalog } from './catalog-load.js';
import { CatalogError, type CatalogFile, type ClassExtension } from './catalog-model.js';

const std = standardCatalog();
const PART = 'wt.part.WTPart';
const DOC = 'wt.doc.WTDocument';
const SUPPLIER = 'com.ptc.windchill.suma.supplier.Supplier';

/** The standard catalog with users' types, as the import checks a dataset's `types`. */
const withTypes = (file: unknown, base: Catalog = std) => checkUserTypes(base, file, 'types');

function problemsOf(file: unknown, base: Catalog = std): string[] {
  try {
    withTypes(file, base);
  } catch (e) {
    if (e instanceof CatalogError) return e.problems.map((p) => `${p.where}: ${p.message}`);
    throw e;
  }
  throw new Error('no CatalogError');
}

const partExtension: ClassExtension = {
  class: PART,
  properties: {
    acmeCostCenter: { type: 'string', json: 'acmeCostCenter', about: 'who pays for it' },
    acmeUnitCost: { type: 'double', json: 'acmeUnitCost' },
    'thePersistInfo.updateStamp': { type: 'timestamp', column: 'modified_at' },
  },
  derived: { acmeDesigner: { type: 'string', column: 'full_name', via: 'creator' } },
  references: { acmeSupplier: { target: SUPPLIER, json: 'acmeSupplier' } },
};

describe('extending standard classes', () => {
  it('adds properties, derived properties and references to the class and the classes below it', () => {
    const cat = withTypes({
      classes: [
        { name: 'com.acme.HarnessPart', parent: PART, master: 'com.acme.HarnessPartMaster' },
        { name: 'com.acme.HarnessPartMaster', parent: 'wt.part.WTPartMaster' },
      ],
      extensions: [partExtension, { class: DOC, properties: { acmeLanguage: { type: 'string', json: 'language' } } }],
    });
    // A user class below the extended class is declared in the same types (its master too).
    for (const name of [PART, 'com.acme.HarnessPart']) {
      const cls = cat.findClass(name)!;
      expect(cls.properties.get('acmeCostCenter')).toEqual({
        type: 'string',
        json: { at: { aux: 'self', column: 'attributes' }, key: 'acmeCostCenter' },
        about: 'who pays for it',
      });
      expect(cls.properties.get('thePersistInfo.updateStamp')).toMatchObject({ at: { column: 'modified_at' } });
      expect(cls.derived.get('acmeDesigner')).toMatchObject({ at: { aux: 'creator', column: 'full_name' } });
      expect(cls.references.get('acmeSupplier')).toMatchObject({
        target: SUPPLIER,
        from: { json: { key: 'acmeSupplier' } },
      });
    }
    expect(cat.findClass(DOC)!.properties.get('acmeLanguage')).toMatchObject({ json: { key: 'language' } });
    // Only the extended class and those below it: a document has no cost center.
    expect(cat.findClass(DOC)!.properties.has('acmeCostCenter')).toBe(false);
    const table = cat.resolveTable(PART);
    if (typeof table === 'string') throw new Error(table);
    expect(cat.resolveProperty(table, 'acmeUnitCost', null)).toMatchObject({ type: 'double' });
    expect(cat.resolveDerived(table, 'acmeDesigner')).toMatchObject({ type: 'string' });
    // The class stays what it was: standard, stored as before, with everything it had.
    const part = cat.findClass(PART)!;
    expect([part.userDeclared, part.storage, part.parent]).toEqual([false, 'iteration', std.findClass(PART)!.parent]);
    for (const [path, def] of std.findClass(PART)!.properties) expect(part.properties.get(path)).toEqual(def);
    // The standard catalog itself is untouched.
    expect(std.findClass(PART)!.properties.has('acmeCostCenter')).toBe(false);
  });

  it('extends an abstract class for every class below it', () => {
    const cat = withTypes({
      extensions: [
        { class: 'wt.enterprise.RevisionControlled', properties: { acmeProgram: { type: 'string', json: 'program' } } },
      ],
    });
    for (const name of std.concreteBelow('wt.enterprise.RevisionControlled')) {
      expect(cat.findClass(name)!.properties.get('acmeProgram')).toMatchObject({ json: { key: 'program' } });
    }
  });

  it('takes the same extension again, an entry the class has given alike, and a later extension adding more', () => {
    const stored = withTypes({ extensions: [partExtension] });
    const again = withTypes(
      {
        extensions: [
          partExtension,
          // What the class has already, given alike (its description aside): changes nothing.
          {
            class: PART,
            properties: { name: { type: 'string', column: 'name', via: 'master', about: 'other words' } },
          },
          { class: PART, properties: { acmeWeightKg: { type: 'double', json: 'acmeWeightKg' } } },
        ],
      },
      stored,
    );
    const part = again.findClass(PART)!;
    expect(part.properties.get('acmeCostCenter')).toEqual(stored.findClass(PART)!.properties.get('acmeCostCenter'));
    expect(part.properties.get('name')).toEqual(std.findClass(PART)!.properties.get('name'));
    expect(part.properties.get('acmeWeightKg')).toMatchObject({ type: 'double' });
  });

  it('refuses an entry the class has with another definition, naming the class and the entry', () => {
    expect(
      problemsOf({
        extensions: [
          {
            class: PART,
            properties: {
              name: { type: 'string', json: 'name' },
              folderPath: { type: 'string', json: 'folder' },
              acmeSource: { type: 'long', json: 'source' },
            },
            derived: { containerName: { type: 'string', column: 'version' } },
            references: { view: { target: SUPPLIER, json: 'view' }, acmeView: { target: SUPPLIER, oidJson: 'view' } },
          },
          // Below the extended class: change objects keep their own priority.
          { class: 'wt.vc.Iterated', properties: { thePriority: { type: 'long', json: 'priority2' } } },
        ],
      }),
    ).toEqual([
      `types: extensions[0] (${PART}).properties.name: property name of ${PART} exists already as master column name (string); an extension cannot change it to json name (string)`,
      `types: extensions[0] (${PART}).properties.folderPath: folderPath of ${PART} is a derived property already, computed folderPath (string); an extension cannot give the path another value (json folder (string))`,
      `types: extensions[0] (${PART}).properties.acmeSource: property acmeSource of ${PART} would keep a long in JSON key source, where property source keeps a string`,
      `types: extensions[0] (${PART}).derived.containerName: derived property containerName of ${PART} exists already as computed containerName (string); an extension cannot change it to column version (string)`,
      `types: extensions[0] (${PART}).references.view: reference view of ${PART} exists already, to wt.vc.views.View kept in json view; an extension cannot change it (to ${SUPPLIER} kept in json view)`,
      `types: extensions[0] (${PART}).references.acmeView: reference acmeView of ${PART} would keep a string in JSON key view, where property view.key.id keeps a long`,
      `types: extensions[1] (wt.vc.Iterated).properties.thePriority: property thePriority of wt.change2.VersionableChangeItem exists already as json priority (string); an extension cannot change it to json priority2 (long)`,
    ]);
  });

  it('refuses an entry an earlier extension added otherwise, saying where', () => {
    const stored = withTypes({ extensions: [partExtension] });
    expect(
      problemsOf(
        { extensions: [{ class: PART, properties: { acmeUnitCost: { type: 'long', json: 'acmeUnitCost' } } }] },
        stored,
      ),
    ).toEqual([
      `types: extensions[0] (${PART}).properties.acmeUnitCost: property acmeUnitCost of ${PART} exists already as json acmeUnitCost (double) (added by types: extensions[0] (${PART}).properties.acmeUnitCost); an extension cannot change it to json acmeUnitCost (long)`,
    ]);
  });

  it('refuses unknown classes, classes that are not standard, and what would change the class', () => {
    expect(
      problemsOf({
        classes: [{ name: 'com.acme.Gadget', parent: 'wt.fc.Item' }],
        softTypes: [{ name: 'com.acme.SoftwarePart', parent: PART }],
        extensions: [
          { class: 'wt.part.WTPartX', properties: { a: { type: 'string', json: 'a' } } },
          { class: 'com.acme.Gadget', properties: { a: { type: 'string', json: 'a' } } },
          { class: 'com.acme.SoftwarePart', properties: { a: { type: 'string', json: 'a' } } },
          { class: PART, storage: 'object', parent: 'wt.fc.Item', displayName: 'Item', name: PART },
        ],
      }),
    ).toEqual([
      'types: extensions[0] (wt.part.WTPartX): extends unknown class wt.part.WTPartX: an extension adds to a class of the standard catalog; declare a class of your own under "classes" (with a parent) instead',
      'types: extensions[1] (com.acme.Gadget): com.acme.Gadget is a class users declared: declare it again under "classes" with what it adds (a declaration replaces the earlier one)',
      'types: extensions[2] (com.acme.SoftwarePart): com.acme.SoftwarePart is a soft type, not a class: declare its attributes under "softTypes"',
      `types: extensions[3] (${PART}).name: an extension names the class it extends in "class"; "name" declares a class of its own`,
      `types: extensions[3] (${PART}).parent: cannot change the parent of ${PART} (wt.enterprise.RevisionControlled); an extension adds properties, derived properties, references and roles`,
      `types: extensions[3] (${PART}).storage: cannot change the storage of ${PART}: it is stored as iteration (table iterations); an extension adds properties, derived properties, references and roles`,
      `types: extensions[3] (${PART}).displayName: cannot change the display name of ${PART}; an extension adds properties, derived properties, references and roles`,
    ]);
  });

  it('refuses references to unknown classes and storage the class does not have', () => {
    const problems = problemsOf({
      extensions: [
        {
          class: PART,
          properties: {
            acmeSecret: { type: 'string', column: 'password_hash' },
            acmeRev: { type: 'long', column: 'version' },
          },
          references: { acmeSupplier: { target: 'com.acme.NoSuchSupplier', json: 'acmeSupplier' } },
        },
        // Every class below wt.fc.Persistable: a storage without a JSON column is said once.
        { class: 'wt.fc.Persistable', properties: { acmeEverywhere: { type: 'string', json: 'everywhere' } } },
      ],
    });
    expect(problems.filter((p) => p.startsWith('types: extensions[0]'))).toEqual([
      `types: extensions[0] (${PART}).properties.acmeSecret: column password_hash is not a column of iteration (see src/catalog/storage.ts)`,
      `types: extensions[0] (${PART}).properties.acmeRev: column version holds string, not long`,
      `types: extensions[0] (${PART}).references.acmeSupplier: reference acmeSupplier: unknown target class com.acme.NoSuchSupplier`,
    ]);
    const everywhere = problems
      .filter((p) => p.startsWith('types: extensions[1]'))
      .map((p) => /storage (\w+) keeps no JSON properties \(on [\w.]+\)$/.exec(p)?.[1]);
    expect(everywhere.sort()).toEqual(['audit', 'content', 'holderToContent', 'template', 'usageLink']);
  });

  it('adds roles to a link class that has none, and refuses them elsewhere', () => {
    const roles = { a: PART, b: DOC };
    const cat = withTypes({
      extensions: [{ class: 'wt.fc.ObjectToObjectLink', roles }],
      classes: [{ name: 'com.acme.PartNote', parent: 'wt.fc.ObjectToObjectLink' }],
    });
    expect(cat.findLink('com.acme.PartNote')?.roles).toEqual(roles);
    expect(cat.findClass('com.acme.PartNote')!.references.get('roleAObjectRef')).toMatchObject({ target: PART });
    expect(
      problemsOf({
        extensions: [
          { class: PART, roles },
          { class: 'wt.change2.AffectedActivityData', roles: { a: 'wt.change2.WTChangeActivity2', b: PART } },
        ],
      }),
    ).toEqual([
      `types: extensions[0] (${PART}).roles: roles are for link classes; ${PART} is stored as iteration, which holds no links`,
      expect.stringMatching(
        /^types: extensions\[1\] \(wt\.change2\.AffectedActivityData\)\.roles: wt\.change2\.AffectedActivityData links \S+ \(a\) and \S+ \(b\) already; an extension cannot change its roles$/,
      ),
    ]);
  });

  it('is for users only: a standard catalog file changes the class itself', () => {
    const file: CatalogFile = { extensions: [{ class: PART, properties: { a: { type: 'string', json: 'a' } } }] };
    expect(() => new Catalog([...std.sources, { where: 'catalog/standard/90-more.json', file }])).toThrow(
      /catalog\/standard\/90-more\.json: extensions\[0\] \(wt\.part\.WTPart\): extensions are users’ additions/,
    );
  });

  it('checks the shape of an extension', () => {
    expect(
      problemsOf({
        extensions: [
          { properties: {} },
          { class: PART, properties: { x: { type: 'text', json: 'x' } } },
          { class: PART, colour: 'red' },
        ],
      }),
    ).toEqual(
      expect.arrayContaining([
        "types.extensions.0: must have required property 'class'",
        'types.extensions.1.properties.x.type: must be equal to one of the allowed values',
        'types.extensions.2: must NOT have additional properties',
      ]),
    );
  });
});

describe('merging a stored extension with a later one', () => {
  it('keeps every entry once, takes a new description, and names each clash', () => {
    const stored: ClassExtension = {
      class: PART,
      properties: { a: { type: 'string', json: 'a', about: 'old' } },
      references: { s: { target: SUPPLIER, json: 's' } },
    };
    expect(mergeExtension(stored, stored)).toEqual({ merged: stored, clashes: [] });
    expect(
      mergeExtension(stored, {
        class: PART,
        properties: { a: { type: 'string', json: 'a', about: 'new' }, b: { type: 'long', json: 'b' } },
        derived: JSON.parse('{"__proto__": {"computed": "oid"}}') as ClassExtension['derived'],
      }),
    ).toEqual({
      merged: {
        class: PART,
        properties: { a: { type: 'string', json: 'a', about: 'new' }, b: { type: 'long', json: 'b' } },
        derived: JSON.parse('{"__proto__": {"computed": "oid"}}') as object,
        references: stored.references,
      },
      clashes: [],
    });
    expect(
      mergeExtension(stored, {
        class: PART,
        properties: { a: { type: 'long', json: 'a' } },
        references: { s: { target: SUPPLIER, json: 's' } },
        roles: { a: PART, b: DOC },
      }),
    ).toEqual({
      merged: expect.objectContaining({ roles: { a: PART, b: DOC } }),
      clashes: [
        `property a of ${PART} was added by another import meanwhile, as json a (string); an extension cannot change it to json a (long)`,
      ],
    });
  });
});
