import { standardCatalog } from './catalog-load.js';
import type { StorageKind } from './storage.js';

const std = standardCatalog();
const classes = std.listClasses();

/**
 * The stamps of a persistable each storage keeps (the master-iteration association, which has no
 * row of its own, keeps none).
 */
const STAMPS: Record<StorageKind, string[]> = {
  iteration: ['createStamp', 'modifyStamp', 'updateStamp'],
  object: ['createStamp', 'modifyStamp', 'updateStamp'],
  link: ['createStamp', 'modifyStamp', 'updateStamp'],
  content: ['createStamp', 'modifyStamp', 'updateStamp'],
  holderToContent: ['createStamp', 'modifyStamp', 'updateStamp'],
  template: ['createStamp', 'modifyStamp', 'updateStamp'],
  audit: ['createStamp', 'modifyStamp', 'updateStamp'],
  container: ['createStamp'],
  user: ['createStamp'],
  master: ['createStamp', 'modifyStamp', 'updateStamp'],
  usageLink: ['createStamp', 'modifyStamp', 'updateStamp'],
  masterIteration: [],
};

/** The standard catalog as a model of Windchill's classes: what every class declares. */
describe('the standard catalog as a model of Windchill', () => {
  it('says what every class is', () => {
    expect(classes.filter((c) => c.about.trim().length < 5).map((c) => c.name)).toEqual([]);
  });

  it("gives every class the persistable's id, OID and class name, and the stamps its storage keeps", () => {
    for (const c of classes.filter((x) => x.storage && !x.interface)) {
      expect([c.name, c.properties.has('thePersistInfo.theObjectIdentifier.id')]).toEqual([c.name, true]);
      expect([c.name, c.derived.get('persistInfo.objectIdentifier.stringValue')?.type]).toEqual([c.name, 'oid']);
      expect([c.name, c.derived.get('persistInfo.objectIdentifier.id')?.type]).toEqual([c.name, 'long']);
      const stamps = STAMPS[c.storage!].map((s) => `thePersistInfo.${s}`);
      expect([c.name, stamps.filter((s) => c.properties.get(s)?.type !== 'timestamp')]).toEqual([c.name, []]);
    }
  });

  it('gives every versioned class its iteration, version, state and master paths', () => {
    const paths = [
      'iterationInfo.identifier.iterationId',
      'iterationInfo.latest',
      'iterationInfo.branchId',
      'versionInfo.identifier.versionId',
      'state.state',
      'master>number',
      'master>name',
      'iterationInfo.creator.key.id',
      'containerReference.key.id',
    ];
    for (const name of std.concreteClasses('iteration')) {
      const c = std.findClass(name)!;
      expect([name, paths.filter((p) => !c.properties.has(p))]).toEqual([name, []]);
      expect([name, ['masterReference', 'containerReference'].filter((r) => !c.references.has(r))]).toEqual([name, []]);
    }
  });

  it('models manufacturing process management: process plans, operations, resources and their links', () => {
    const mpm = 'com.ptc.windchill.mpml.';
    const holder = `${mpm}processplan.operation.MPMOperationHolder`;
    expect(std.concreteBelow(holder)).toEqual([
      `${mpm}processplan.MPMProcessPlan`,
      `${mpm}processplan.sequence.MPMSequence`,
      `${mpm}processplan.operation.MPMOperation`,
    ]);
    expect(std.concreteBelow(`${mpm}resource.MPMResource`)).toEqual(
      ['MPMPlant', 'MPMWorkCenter', 'MPMResourceGroup', 'MPMSkill', 'MPMTooling', 'MPMProcessMaterial'].map(
        (r) => `${mpm}resource.${r}`,
      ),
    );
    const roles = (link: string) => std.findLink(link)?.roles;
    expect(roles(`${mpm}processplan.operation.MPMOperationUsageLink`)).toEqual({
      a: holder,
      b: `${mpm}processplan.operation.MPMOperationMaster`,
    });
    expect(roles(`${mpm}processplan.operation.MPMOperationToWorkCenterLink`)).toEqual({
      a: `${mpm}processplan.operation.MPMOperation`,
      b: `${mpm}resource.MPMWorkCenterMaster`,
    });
    expect(roles(`${mpm}processplan.MPMPartToProcessPlanLink`)).toEqual({
      a: 'wt.part.WTPart',
      b: `${mpm}processplan.MPMProcessPlan`,
    });
    // Enterprise data points to the masters of plant data, which carry its modeled properties.
    expect(roles('com.ptc.windchill.enterprise.data.PlantFunctionalDataLink')?.b).toBe(
      'com.ptc.windchill.enterprise.data.PlantFunctionalDataMaster',
    );
    const master = std.findClass('com.ptc.windchill.enterprise.data.PlantFunctionalDataMaster')!;
    expect(['category', 'alternate1', 'alternate2'].map((p) => master.properties.get(p)?.type)).toEqual([
      'string',
      'string',
      'string',
    ]);
  });

  it('lets change links name any versioned object, as Windchill’s changeables', () => {
    for (const link of [
      'wt.change2.ReportedAgainst',
      'wt.change2.RelevantRequestData2',
      'wt.change2.AffectedActivityData',
      'wt.change2.ChangeRecord2',
      'wt.change2.HangingChangeLink',
    ]) {
      expect([link, std.findLink(link)?.roles?.b]).toEqual([link, 'wt.vc.Iterated']);
    }
    // Problem reports and variances are both reported against objects.
    expect(std.isA('wt.change2.WTVariance', std.findLink('wt.change2.ReportedAgainst')!.roles!.a)).toBe(true);
    expect(std.isA('wt.change2.WTChangeIssue', std.findLink('wt.change2.ReportedAgainst')!.roles!.a)).toBe(true);
  });

  it('names a JSON key twice only for aliases of one value, the documented name declared last', () => {
    // Objects show a JSON value under the last name declaring its key (propsView): the names
    // templates have always used stay the names objects show.
    const shown = (cls: string, key: string) => {
      const c = std.findClass(cls)!;
      const names = [...c.properties, ...c.derived]
        .filter(([, p]) => 'json' in p && p.json.key === key)
        .map(([n]) => n);
      return names[names.length - 1];
    };
    expect(shown('wt.workflow.engine.WfProcess', 'template')).toBe('template');
    expect(shown('wt.effectivity.WTDatedEffectivity', 'start')).toBe('effectivityRange.start');
    expect(shown('wt.effectivity.WTDatedEffectivity', 'end')).toBe('effectivityRange.end');
  });
});
