import { standardCatalog, checkUserTypes } from './catalog-load.js';
import { CatalogError, type CatalogFile } from './catalog-model.js';
import { classView } from './catalog-view.js';

const std = standardCatalog();
const withTypes = (file: CatalogFile) => checkUserTypes(std, file, 'types');

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (e) {
    if (e instanceof CatalogError) return e.problems.map((p) => `${p.where}: ${p.message}`);
    throw e;
  }
  throw new Error('no CatalogError');
}

/** A plain class of users implementing LifeCycleManaged: the interface then spans two storages. */
const INSPECTION: CatalogFile = {
  classes: [
    {
      name: 'com.acme.qa.Inspection',
      parent: 'wt.fc.Item',
      interfaces: ['wt.lifecycle.LifeCycleManaged'],
      derived: { lifeCycleState: { type: 'string', column: 'state' } },
    },
  ],
};

describe('interfaces of the catalog', () => {
  it('match every implementing class, and the classes below them, as a parent class matches its subclasses', () => {
    const lcm = std.findClass('wt.lifecycle.LifeCycleManaged')!;
    expect(lcm).toMatchObject({ interface: true, abstract: true, storage: 'iteration', parent: null });
    expect(std.concreteBelow(lcm.name)).toEqual([
      'wt.doc.WTDocument',
      'wt.epm.EPMDocument',
      'wt.part.WTPart',
      'wt.part.WTProductInstance2',
      'wt.change2.WTChangeIssue',
      'wt.change2.WTChangeRequest2',
      'wt.change2.WTChangeOrder2',
      'wt.change2.WTChangeActivity2',
      'wt.change2.WTVariance',
      'com.ptc.windchill.enterprise.data.EnterpriseData',
      'com.ptc.windchill.enterprise.data.PlantFunctionalData',
      'com.ptc.windchill.mpml.processplan.MPMProcessPlan',
      'com.ptc.windchill.mpml.processplan.sequence.MPMSequence',
      'com.ptc.windchill.mpml.processplan.operation.MPMOperation',
      'com.ptc.windchill.mpml.resource.MPMPlant',
      'com.ptc.windchill.mpml.resource.MPMWorkCenter',
      'com.ptc.windchill.mpml.resource.MPMResourceGroup',
      'com.ptc.windchill.mpml.resource.MPMSkill',
      'com.ptc.windchill.mpml.resource.MPMTooling',
      'com.ptc.windchill.mpml.resource.MPMProcessMaterial',
      'com.ptc.wpcfg.doc.VariantSpec',
    ]);
    expect(lcm.classValues).toEqual(std.concreteBelow(lcm.name));
    expect(std.isA('wt.part.WTPart', 'wt.change2.Changeable2')).toBe(true);
    expect(std.isA('wt.change2.WTChangeOrder2', 'wt.change2.Changeable2')).toBe(false);
    // A class implements its own interfaces and its parents'.
    expect(std.findClass('wt.part.WTPart')!.interfaces).toEqual([
      'wt.vc.wip.Workable',
      'wt.lifecycle.LifeCycleManaged',
      'wt.change2.Changeable2',
      'wt.ufid.Federatable',
      'wt.inf.container.WTContained',
      'wt.content.ContentHolder',
    ]);
  });

  it('span several storages when their classes do: such an interface has no storage of its own', () => {
    expect(std.findClass('wt.ufid.Federatable')!.storage).toBeNull();
    expect(new Set(std.concreteBelow('wt.ufid.Federatable').map((c) => std.findClass(c)!.storage))).toEqual(
      new Set(['user', 'iteration']),
    );
    const contained = std.concreteBelow('wt.inf.container.WTContained').map((c) => std.findClass(c)!.storage);
    expect(new Set(contained)).toEqual(new Set(['iteration', 'master', 'object', 'template']));
    // A user's plain class implementing a standard interface widens it.
    const widened = withTypes(INSPECTION);
    expect(widened.findClass('wt.lifecycle.LifeCycleManaged')!.storage).toBeNull();
    expect(widened.isA('com.acme.qa.Inspection', 'wt.lifecycle.LifeCycleManaged')).toBe(true);
  });

  it('extend other interfaces: what implements one implements those it extends', () => {
    const cat = withTypes({
      interfaces: [{ name: 'com.acme.Audited', extends: ['wt.lifecycle.LifeCycleManaged'] }],
      classes: [{ name: 'com.acme.Audit', parent: 'wt.fc.Item', interfaces: ['com.acme.Audited'] }],
    });
    expect(cat.findClass('com.acme.Audit')!.interfaces).toEqual([
      'com.acme.Audited',
      'wt.lifecycle.LifeCycleManaged',
      'wt.inf.container.WTContained', // wt.fc.Item's
    ]);
    expect(cat.isA('com.acme.Audited', 'wt.lifecycle.LifeCycleManaged')).toBe(true);
    expect(cat.isA('com.acme.Audit', 'wt.lifecycle.LifeCycleManaged')).toBe(true);
    expect(cat.findClass('com.acme.Audited')!.interfaces).toEqual(['wt.lifecycle.LifeCycleManaged']);
  });

  it('are reference targets and link roles like classes of their storage', () => {
    const cat = withTypes({
      classes: [
        {
          name: 'com.acme.Review',
          parent: 'wt.fc.Item',
          references: { subject: { target: 'wt.change2.Changeable2', json: 'subject' } },
        },
        {
          name: 'com.acme.ReviewedBy',
          parent: 'wt.fc.ObjectToObjectLink',
          roles: { a: 'wt.change2.Changeable2', b: 'com.acme.Review' },
        },
      ],
    });
    expect(cat.findClass('com.acme.Review')!.references.get('subject')!.target).toBe('wt.change2.Changeable2');
    expect(cat.findLink('com.acme.ReviewedBy')!.roles).toEqual({ a: 'wt.change2.Changeable2', b: 'com.acme.Review' });
    // An id names a row of one table: a reference to an interface of several storages keeps an OID.
    expect(
      problemsOf(() =>
        withTypes({
          classes: [
            {
              name: 'com.acme.Note',
              parent: 'wt.fc.Item',
              references: { about: { target: 'wt.ufid.Federatable', json: 'a' } },
            },
          ],
        }),
      ),
    ).toEqual([
      'types: classes[0] (com.acme.Note): reference about: target wt.ufid.Federatable spans several storage kinds; keep its OID (oidJson or oidColumns)',
    ]);
  });

  it('hold their classes to what they declare, naming the class, the interface and the entry', () => {
    const problems = problemsOf(() =>
      withTypes({
        interfaces: [
          {
            name: 'com.acme.Rated',
            properties: { rating: { type: 'long' }, 'state.state': { type: 'string' } },
            derived: { ratingText: { type: 'string' } },
            references: { rater: { target: 'wt.org.WTUser' }, owner: { target: 'wt.org.WTUser' } },
          },
        ],
        classes: [
          {
            name: 'com.acme.Rating',
            parent: 'wt.fc.Item',
            interfaces: ['com.acme.Rated'],
            properties: { rating: { type: 'string', json: 'rating' } },
            references: { rater: { target: 'wt.vc.views.View', json: 'rater' } },
          },
        ],
      }),
    );
    expect(problems).toEqual([
      'types: classes[0] (com.acme.Rating): property "rating" of com.acme.Rating is string; com.acme.Rated declares long',
      'types: classes[0] (com.acme.Rating): com.acme.Rating implements com.acme.Rated but has no derived property "ratingText" (string)',
      'types: classes[0] (com.acme.Rating): reference "rater" of com.acme.Rating points to wt.vc.views.View; com.acme.Rated declares wt.org.WTUser or below',
      'types: classes[0] (com.acme.Rating): com.acme.Rating implements com.acme.Rated but has no reference "owner" (to wt.org.WTUser)',
    ]);
  });

  it('refuses unknown interfaces, classes named as interfaces, clashing names and cycles', () => {
    const problems = problemsOf(() =>
      withTypes({
        interfaces: [
          { name: 'wt.part.WTPart' },
          { name: 'com.acme.A', extends: ['com.acme.B'] },
          { name: 'com.acme.B', extends: ['com.acme.A', 'wt.part.WTPartMaster'] },
          { name: 'com.acme.A' },
        ],
        classes: [{ name: 'com.acme.C', parent: 'wt.fc.Item', interfaces: ['com.acme.Nowhere', 'wt.fc.Item'] }],
      }),
    );
    expect(problems).toEqual([
      'types: interfaces[0] (wt.part.WTPart): interface wt.part.WTPart has the name of a class',
      'types: interfaces[3] (com.acme.A): interface com.acme.A is declared twice (also types: interfaces[1] (com.acme.A))',
      'types: interfaces[1] (com.acme.A): interface com.acme.A extends itself (a cycle of interfaces)',
      'types: interfaces[2] (com.acme.B).extends: wt.part.WTPartMaster is a class, not an interface (a class names its parent class in "parent")',
      'types: interfaces[2] (com.acme.B): interface com.acme.B extends itself (a cycle of interfaces)',
      'types: classes[0] (com.acme.C).interfaces: unknown interface com.acme.Nowhere',
      'types: classes[0] (com.acme.C).interfaces: wt.fc.Item is a class, not an interface (a class names its parent class in "parent")',
    ]);
  });

  it('show in the catalog API with what they declare and the classes implementing them', () => {
    const view = classView(std, std.findClass('wt.inf.container.WTContained')!);
    expect(view).toMatchObject({
      name: 'wt.inf.container.WTContained',
      interface: true,
      abstract: true,
      storage: null,
      properties: [{ path: 'containerReference.key.id', type: 'long', source: 'each implementing class' }],
      derived: [{ path: 'containerName', type: 'string', source: 'each implementing class' }],
      references: [{ name: 'containerReference', target: 'wt.inf.container.WTContainer' }],
    });
    expect(view.subclasses).toEqual(expect.arrayContaining(['wt.part.WTPart', 'wt.workflow.work.WorkItem']));
    expect(classView(std, std.findClass('wt.org.WTUser')!)).toMatchObject({
      interface: false,
      interfaces: ['wt.ufid.Federatable'],
    });
  });
});
