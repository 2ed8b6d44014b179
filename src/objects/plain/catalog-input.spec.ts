import { standardCatalog } from '../../catalog/catalog-load.js';
import { ownerStorage } from './catalog-input.js';

describe('ownerStorage', () => {
  const catalog = standardCatalog();

  it("is the storage of a link class's role A when that is versioned: the object owning the link", () => {
    expect(ownerStorage(catalog, 'wt.part.WTPartDescribeLink')).toBe('iteration');
    expect(ownerStorage(catalog, 'wt.change2.AffectedActivityData')).toBe('iteration');
    expect(ownerStorage(catalog, 'com.ptc.windchill.enterprise.data.PlantFunctionalDataLink')).toBe('iteration');
  });

  it('is null where role A is not versioned, and for what is not a link class', () => {
    expect(ownerStorage(catalog, 'wt.org.MembershipLink')).toBeNull();
    expect(ownerStorage(catalog, 'wt.workflow.work.WorkItemLink')).toBeNull();
    expect(ownerStorage(catalog, 'wt.doc.WTDocument')).toBeNull();
    expect(ownerStorage(catalog, 'no.such.Class')).toBeNull();
  });
});
