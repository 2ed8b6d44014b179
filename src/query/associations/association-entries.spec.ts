import { standardCatalog } from '../../catalog/catalog-load.js';
import { describeLinkClasses, describeRelated } from './association-entries.js';
import type { RelatedRow } from './associations.repository.js';

const row: RelatedRow = {
  item: 7,
  link_id: 12,
  link_class: 'wt.part.WTPartUsageLink',
  quantity: 4,
  unit: 'ea',
  line_number: '20',
  reference_number: null,
  cls: 'wt.part.WTPart',
  subtype: null,
  number: 'STD-000001',
  name: 'M6 bolt',
  iteration_id: 14,
  version: 'A',
  iteration: 1,
  state: 'RELEASED',
  latest: true,
  container_id: 2,
  container_class: 'wt.inf.library.WTLibrary',
  container_name: 'Standard Parts',
};

describe('association entries', () => {
  it('describes a related object by its iteration, container and link', () => {
    expect(describeRelated(row)).toEqual({
      oid: 'OR:wt.part.WTPart:14',
      type: 'wt.part.WTPart',
      subtype: null,
      number: 'STD-000001',
      name: 'M6 bolt',
      version: 'A',
      iteration: 1,
      state: 'RELEASED',
      latest: true,
      container: { oid: 'OR:wt.inf.library.WTLibrary:2', name: 'Standard Parts' },
      link: 'OR:wt.part.WTPartUsageLink:12',
      quantity: 4,
      unit: 'ea',
      lineNumber: 20,
      referenceNumber: null,
    });
  });

  it('gives a used object without iterations no OID, and a link without line number none', () => {
    const bare = { ...row, iteration_id: null, version: null, iteration: null, state: null, latest: null };
    expect(describeRelated({ ...bare, line_number: null })).toMatchObject({
      oid: null,
      version: null,
      lineNumber: null,
    });
  });

  it('finds the describe link classes of the standard catalog: from an iteration to a document iteration', () => {
    expect(describeLinkClasses(standardCatalog())).toEqual([
      'wt.part.WTPartDescribeLink',
      'com.ptc.windchill.mpml.MPMDocumentDescribeLink',
    ]);
  });
});
