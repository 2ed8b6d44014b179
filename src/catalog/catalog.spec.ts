import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from './catalog.js';
import { classView } from './catalog-view.js';
import { loadCatalogDir, standardCatalog } from './catalog-load.js';
import { CatalogError, type CatalogFile } from './catalog-model.js';
import { masterClassOf, OidClass, RootClass } from './standard-classes.js';

const std = standardCatalog();

/** The standard catalog with more classes and soft types, as a dataset declares them. */
const withTypes = (file: CatalogFile) => std.extend([{ where: 'test', file, user: true }], 'test');

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (e) {
    if (e instanceof CatalogError) return e.problems.map((p) => `${p.where}: ${p.message}`);
    throw e;
  }
  throw new Error('no CatalogError');
}

describe('the standard catalog', () => {
  it('loads and holds every class the issue names', () => {
    for (const name of [
      'wt.part.WTPart',
      'wt.vc.views.View',
      'wt.change2.WTChangeOrder2',
      'wt.change2.WTChangeOrder2Master',
      'wt.change2.WTChangeRequest2',
      'wt.change2.WTChangeActivity2',
      'wt.change2.WTChangeIssue',
      'wt.change2.WTVariance',
      'wt.change2.ReportedAgainst',
      'wt.change2.IncludedIn2',
      'wt.change2.AddressedBy2',
      'wt.change2.RelevantRequestData2',
      'wt.change2.AffectedActivityData',
      'wt.change2.ChangeRecord2',
      'wt.workflow.engine.WfProcess',
      'wt.workflow.work.WorkItem',
      'wt.workflow.work.WfAssignedActivity',
      'wt.workflow.work.WfAssignment',
      'wt.workflow.work.WorkItemLink',
      'wt.workflow.work.ActivityAssignmentLink',
      'wt.queue.WtQueue',
      'wt.queue.WtQueueEntry',
      'wt.org.WTOrganization',
      'wt.org.WTGroup',
      'wt.org.MembershipLink',
      'com.ptc.windchill.suma.supplier.Supplier',
      'com.ptc.windchill.suma.supplier.Manufacturer',
      'wt.part.WTPartDocumentLink',
      'wt.part.WTPartDescribeLink',
      'wt.part.PartUsesOccurrence',
      'wt.part.WTProductInstance2',
      'wt.viewmarkup.DerivedImage',
      'wt.effectivity.WTDatedEffectivity',
      'wt.audit.AuditRecord',
      'wt.vc.ControlBranch',
      'com.ptc.windchill.enterprise.data.EnterpriseData',
      'com.ptc.windchill.enterprise.data.PlantFunctionalData',
      'com.ptc.windchill.enterprise.data.PlantFunctionalDataMaster',
    ]) {
      expect(std.findClass(name)?.name).toBe(name);
    }
  });

  it('declares every class name the code spells, and the master class of each versioned class', () => {
    const names = [...Object.values(OidClass), ...Object.values(RootClass)];
    // Workspaces are kept apart from the catalog: no query reads them.
    expect(names.filter((name) => !std.findClass(name))).toEqual([OidClass.workspace]);
    for (const name of std.concreteClasses('iteration')) {
      expect(std.findClass(name)!.master).toBe(masterClassOf(name));
    }
    expect(Object.values(RootClass).map((name) => std.findClass(name)!.abstract)).toEqual([true, true, true, true]);
  });

  it('lists the concrete classes below a class, and the numbered classes', () => {
    expect(std.concreteBelow(RootClass.revisionControlled)).toEqual([
      'wt.doc.WTDocument',
      'wt.epm.EPMDocument',
      'wt.part.WTPart',
    ]);
    expect(std.concreteBelow(RootClass.iterated, 'iteration')).toEqual(std.concreteClasses('iteration'));
    expect(std.concreteBelow('com.acme.Unknown')).toEqual([]);
    expect(std.numberedClasses()).toEqual([...std.concreteClasses('iteration'), ...std.concreteClasses('object')]);
    // isConcreteBelow answers membership of concreteBelow: abstract classes below the root are out.
    for (const root of Object.values(RootClass)) {
      const below = std.listClasses().filter((c) => std.isConcreteBelow(c.name, root));
      expect(new Set(below.map((c) => c.name))).toEqual(new Set(std.concreteBelow(root)));
    }
    expect(std.isConcreteBelow(RootClass.revisionControlled, RootClass.revisionControlled)).toBe(false);
    expect(std.isConcreteBelow('com.acme.Unknown', RootClass.container)).toBe(false);
  });

  it('matches subclasses: a class covers the class values of every class below it', () => {
    expect(std.findClass('wt.enterprise.RevisionControlled')!.classValues).toEqual([
      'wt.doc.WTDocument',
      'wt.epm.EPMDocument',
      'wt.part.WTPart',
    ]);
    expect(std.findClass('com.ptc.windchill.suma.supplier.Supplier')!.classValues).toEqual([
      'com.ptc.windchill.suma.supplier.Supplier',
      'com.ptc.windchill.suma.supplier.Manufacturer',
      'com.ptc.windchill.suma.supplier.Vendor',
    ]);
    // Masters are rows of the masters table whose class is the versioned class.
    expect(std.findClass('wt.part.WTPartMaster')!.classValues).toEqual(['wt.part.WTPart']);
    expect(std.findClass('wt.vc.Mastered')!.classValues).toContain('wt.change2.WTChangeOrder2');
  });

  it('inherits properties, derived properties and references, and generates the role references of links', () => {
    const order = std.findClass('wt.change2.WTChangeOrder2')!;
    expect(order.properties.get('number')).toMatchObject({ type: 'string', at: { aux: 'master', column: 'number' } });
    expect(order.properties.get('thePriority')).toMatchObject({ type: 'string', json: { key: 'priority' } });
    expect(order.derived.get('thePersistInfo.theObjectIdentifier.classname')).toMatchObject({ computed: 'classname' });
    expect(order.references.get('masterReference')).toMatchObject({ target: 'wt.vc.Mastered' });
    const link = std.findClass('wt.change2.AffectedActivityData')!;
    expect(link.references.get('roleAObjectRef')).toMatchObject({
      target: 'wt.change2.WTChangeActivity2',
      from: { at: { column: 'role_a_id' } },
    });
    expect(link.properties.get('roleBObjectRef.key.id')).toMatchObject({ type: 'long', at: { column: 'role_b_id' } });
  });

  it('links a change order (role A) to a change activity (role B) by IncludedIn2, as Windchill does', () => {
    const included = std.findClass('wt.change2.IncludedIn2')!;
    expect(included.roles).toEqual({ a: 'wt.change2.WTChangeOrder2', b: 'wt.change2.WTChangeActivity2' });
    expect(included.references.get('roleAObjectRef')).toMatchObject({
      target: 'wt.change2.WTChangeOrder2',
      from: { at: { column: 'role_a_id' } },
    });
    expect(included.references.get('roleBObjectRef')).toMatchObject({
      target: 'wt.change2.WTChangeActivity2',
      from: { at: { column: 'role_b_id' } },
    });
  });

  it('stores each kind of class in its storage', () => {
    const storage = (n: string) => std.findClass(n)!.storage;
    expect(storage('wt.part.WTPart')).toBe('iteration');
    expect(storage('wt.part.WTPartMaster')).toBe('master');
    expect(storage('wt.part.WTPartUsageLink')).toBe('usageLink');
    expect(storage('wt.content.ApplicationData')).toBe('content');
    expect(storage('wt.content.HolderToContent')).toBe('holderToContent');
    expect(storage('wt.pdmlink.PDMLinkProduct')).toBe('container');
    expect(storage('wt.org.WTUser')).toBe('user');
    expect(storage('wt.query.template.ReportTemplate')).toBe('template');
    expect(storage('wt.workflow.engine.WfProcess')).toBe('object');
    expect(storage('wt.org.MembershipLink')).toBe('link');
    expect(storage('wt.audit.AuditRecord')).toBe('audit');
    expect(storage('wt.fc.Persistable')).toBeNull();
  });

  it("keeps an audit record's object as an OID of class and id columns, refusing columns of other types", () => {
    expect(std.findReference(std.findClass('wt.audit.AuditRecord')!, 'targetReference')).toEqual({
      name: 'targetReference',
      target: 'wt.fc.Persistable',
      from: { oidColumns: { cls: { aux: 'self', column: 'object_class' }, id: { aux: 'self', column: 'object_id' } } },
    });
    const problems = problemsOf(() =>
      withTypes({
        classes: [
          {
            name: 'com.acme.Trail',
            parent: 'wt.audit.AuditRecord',
            references: {
              byId: { target: 'wt.fc.Persistable', oidColumns: { class: 'object_id', id: 'object_id' } },
              byName: { target: 'wt.fc.Persistable', oidColumns: { class: 'action', id: 'user_name' } },
            },
          },
          {
            name: 'com.acme.Bad',
            parent: 'wt.fc.Item',
            references: { t: { target: 'wt.fc.Persistable', oidColumns: { class: 'name', id: 'secret' } } },
          },
        ],
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/byId: column object_id is not a text column of audit/),
      expect.stringMatching(/byName: column user_name is not an id column of audit/),
      expect.stringMatching(/references\.t: column secret is not an id column of object/),
    ]);
  });

  it('has every computed derived property somewhere', () => {
    const kinds = new Set(
      std
        .listClasses()
        .flatMap((c) => [...c.derived.values()])
        .flatMap((p) => ('computed' in p ? [p.computed] : [])),
    );
    expect([...kinds].sort()).toEqual(
      [
        'classname',
        'containerName',
        'displayType',
        'folderPath',
        'formatName',
        'iterationDisplay',
        'oid',
        'typeName',
        'versionReference',
        'branchId',
        'identity',
      ].sort(),
    );
  });
});

describe('named paths (paths)', () => {
  it('resolves every named path of the standard catalog to a value of a known type', () => {
    // An abstract link class names its roles' references for the link classes below it, which have them.
    const unresolved = std
      .listClasses()
      .filter((c) => !(c.abstract && c.storage === 'link' && !c.roles))
      .flatMap((c) => classView(std, c).derived.filter((d) => d.source.startsWith('path ') && d.type === 'unknown'))
      .map((d) => d.path);
    expect(unresolved).toEqual([]);
    const view = classView(std, std.findClass('wt.audit.AuditRecord')!);
    expect(view.derived.find((d) => d.path === 'userOrgName')).toEqual({
      path: 'userOrgName',
      type: 'string',
      source: 'path userReference.organizationReference.name',
    });
  });

  it('inherits them, and refuses one that names a property, derived property or reference already, or a path to nothing', () => {
    expect(std.findClass('wt.change2.ReportedAgainst')!.paths.get('roleBObject')).toBe('roleBObjectRef');
    expect(
      problemsOf(() =>
        withTypes({
          classes: [
            {
              name: 'com.acme.np.Thing',
              parent: 'wt.fc.Item',
              properties: { size: { type: 'long', json: 'size' } },
              paths: { size: 'containerReference.name', where: 'containerReference.name' },
            },
          ],
        }),
      ),
    ).toEqual([
      'test: classes[0] (com.acme.np.Thing).paths.size: size is a property, derived property or reference already',
    ]);
    expect(
      problemsOf(() =>
        withTypes({
          classes: [{ name: 'com.acme.np.Other', parent: 'wt.fc.Item', paths: { owner: 'containerReference.nme' } }],
        }),
      ),
    ).toEqual([
      'test: classes[0] (com.acme.np.Other).paths.owner: containerReference.nme is no property, derived property or reference path of com.acme.np.Other',
    ]);
  });
});

describe('tables and soft types', () => {
  const cat = withTypes({
    softTypes: [
      { name: 'com.acme.SoftwarePart', parent: 'wt.part.WTPart', attributes: { memoryKb: { type: 'long' } } },
      { name: 'com.acme.Bootloader', parent: 'com.acme.SoftwarePart' },
    ],
  });

  it('selects a declared soft type and the soft types below it', () => {
    const t = cat.resolveTable('WCTYPE|wt.part.WTPart|com.acme.SoftwarePart');
    expect(t).toMatchObject({
      cls: { name: 'wt.part.WTPart' },
      softTypes: ['com.acme.SoftwarePart', 'com.acme.Bootloader'],
      warning: null,
    });
    expect(cat.resolveTable('WCTYPE|wt.part.WTPart|com.acme.SoftwarePart|com.acme.Bootloader')).toMatchObject({
      softTypes: ['com.acme.Bootloader'],
    });
    expect(cat.resolveTable('WCTYPE|wt.part.WTPart')).toMatchObject({ softTypes: null });
  });

  it('accepts an undeclared soft type of a known class with a warning, matching exactly it', () => {
    const t = cat.resolveTable('WCTYPE|wt.part.WTPart|com.other.Gadget');
    expect(t).toMatchObject({ softTypes: ['com.other.Gadget'] });
    expect((t as { warning: string }).warning).toMatch(/com.other.Gadget of wt.part.WTPart is not declared/);
  });

  it('refuses soft types of another class, of classes without soft types, and unknown classes', () => {
    expect(cat.resolveTable('WCTYPE|wt.doc.WTDocument|com.acme.SoftwarePart')).toBe(
      'soft type com.acme.SoftwarePart is a type of wt.part.WTPart, not of wt.doc.WTDocument',
    );
    expect(cat.resolveTable('WCTYPE|wt.org.WTUser|com.acme.Robot')).toBe(
      'wt.org.WTUser has no soft types (storage user)',
    );
    expect(cat.resolveTable('WCTYPE|com.acme.Widget|com.acme.Blue')).toMatch(
      /^unknown class com.acme.Widget \(the base of soft type com.acme.Blue\): declare it/,
    );
    expect(cat.resolveTable('wt.change2.WTChangeOrder3')).toMatch(
      /^unknown class wt.change2.WTChangeOrder3: package wt.change2 is known/,
    );
    expect(cat.resolveTable('wt.fc.Persistable')).toMatch(/spans several storage kinds/);
  });

  it('types custom attributes by their soft type, else by the hint; MBA of versioned objects falls back to the iteration', () => {
    const t = cat.resolveTable('WCTYPE|wt.part.WTPart|com.acme.SoftwarePart');
    if (typeof t === 'string') throw new Error(t);
    expect(cat.resolveProperty(t, 'WCTYPE|wt.part.WTPart|com.acme.SoftwarePart~IBA|memoryKb', null)).toMatchObject({
      type: 'long',
      json: { key: 'memoryKb', at: { aux: 'self', column: 'attributes' } },
    });
    expect(cat.resolveProperty(t, 'WCTYPE|wt.part.WTPart~IBA|colour', 'boolean')).toMatchObject({ type: 'boolean' });
    expect(cat.resolveProperty(t, 'WCTYPE|wt.part.WTPart~MBA|unit', null)).toMatchObject({
      json: { at: { aux: 'master', column: 'attributes' }, fallback: { aux: 'self', column: 'attributes' } },
    });
    const view = cat.resolveTable('wt.vc.views.View');
    if (typeof view === 'string') throw new Error(view);
    expect(cat.resolveProperty(view, 'WCTYPE|wt.vc.views.View~IBA|site', null)).toMatchObject({
      json: { at: { column: 'props' } },
    });
  });
});

describe('loading a catalog', () => {
  it('refuses a bad catalog with the list of all its problems', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ classes: [{ name: 'nodots' }], extra: 1 }));
    writeFileSync(join(dir, 'b.json'), '{ not json');
    writeFileSync(join(dir, 'c.json'), JSON.stringify(cFile()));
    const problems = problemsOf(() => loadCatalogDir(dir));
    expect(problems.some((p) => /a\.json: must NOT have additional properties/.test(p))).toBe(true);
    expect(problems.some((p) => /a\.json\.classes\.0\.name: must match pattern/.test(p))).toBe(true);
    expect(problems.some((p) => /b\.json: not JSON/.test(p))).toBe(true);
    // The files of bad shape are left out; the good one is checked for meaning with every problem.
    const meaning = problemsOf(
      () => new Catalog([{ where: 'c.json', file: JSON.parse(JSON.stringify(cFile())) as CatalogFile }]),
    );
    expect(meaning).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/x\.Orphan.*unknown parent class x\.Missing/),
        expect.stringMatching(/x\.A.*its own ancestor/),
        expect.stringMatching(/x\.BadColumn.*column password_hash is not a column of object/),
        expect.stringMatching(/x\.WrongType.*column name holds string, not long/),
        expect.stringMatching(/x\.Ref.*unknown target class x\.Nowhere/),
        expect.stringMatching(/x\.Link.*unknown role class x\.Unknown/),
        expect.stringMatching(/x\.Plain.*roles are for link classes/),
        expect.stringMatching(/x\.Versioned.*names its master class x\.VersionedMaster/),
        expect.stringMatching(/x\.NoStorage.*needs a storage kind/),
        expect.stringMatching(/x\.Soft.*unknown parent wt\.nothing\.Here/),
      ]),
    );
    expect(problems.length).toBeGreaterThanOrEqual(3 + meaning.length);
  });

  it('refuses a user class that clashes with a standard one, and a computed value its storage lacks', () => {
    const problems = problemsOf(() =>
      withTypes({
        classes: [
          { name: 'wt.part.WTPart', parent: 'wt.fc.Item' },
          { name: 'com.acme.Thing', parent: 'wt.fc.Item', derived: { v: { computed: 'iterationDisplay' } } },
        ],
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/class wt.part.WTPart is declared twice/),
      expect.stringMatching(/computed iterationDisplay is not available on storage object/),
    ]);
  });
});

function cFile(): CatalogFile {
  return {
    classes: [
      { name: 'x.Root', abstract: true, storage: 'object', properties: { ok: { type: 'string', column: 'name' } } },
      { name: 'x.Orphan', parent: 'x.Missing' },
      { name: 'x.A', parent: 'x.B' },
      { name: 'x.B', parent: 'x.A' },
      { name: 'x.BadColumn', parent: 'x.Root', properties: { secret: { type: 'string', column: 'password_hash' } } },
      { name: 'x.WrongType', parent: 'x.Root', properties: { n: { type: 'long', column: 'name' } } },
      { name: 'x.Ref', parent: 'x.Root', references: { r: { target: 'x.Nowhere', json: 'r' } } },
      { name: 'x.Link', storage: 'link', roles: { a: 'x.Root', b: 'x.Unknown' } },
      { name: 'x.Plain', parent: 'x.Root', roles: { a: 'x.Root', b: 'x.Root' } },
      { name: 'x.Versioned', storage: 'iteration' },
      { name: 'x.NoStorage' },
    ],
    softTypes: [{ name: 'x.Soft', parent: 'wt.nothing.Here' }],
  };
}
