import { standardCatalog } from '../catalog/catalog-load.js';
import { parseClassName } from './numbered-class.js';
import { message } from '../common/thrown-message.fixtures.js';

/** The standard catalog with types a dataset declared: a plain class, a versioned one, soft types. */
const catalog = standardCatalog().extend(
  [
    {
      where: 'test',
      user: true,
      file: {
        classes: [
          { name: 'com.acme.qa.TestReport', parent: 'wt.fc.Item' },
          {
            name: 'com.acme.Versioned',
            parent: 'wt.change2.VersionableChangeItem',
            master: 'com.acme.VersionedMaster',
          },
          { name: 'com.acme.VersionedMaster', parent: 'wt.vc.Mastered' },
        ],
        softTypes: [
          { name: 'com.acme.SoftwarePart', parent: 'wt.part.WTPart' },
          { name: 'com.acme.ReviewTask', parent: 'wt.workflow.work.WorkItem' },
          { name: 'com.acme.Covering', parent: 'wt.change2.IncludedIn2' },
        ],
      },
    },
  ],
  'test',
);

const NUMBERED =
  'numbers are generated for wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart, the other versioned and ' +
  'plain classes of the catalog (wt.change2.WTChangeOrder2, wt.workflow.engine.WfProcess …) and their soft ' +
  'subtypes written <class>|<subtype>, e.g. wt.doc.WTDocument|com.acme.Spec';

describe('parseClassName', () => {
  it.each([
    ['wt.doc.WTDocument', 'wt.doc.WTDocument', 'masters'],
    ['wt.epm.EPMDocument', 'wt.epm.EPMDocument', 'masters'],
    ['wt.part.WTPart', 'wt.part.WTPart', 'masters'],
    ['wt.doc.WTDocument|com.acme.Spec', 'wt.doc.WTDocument', 'masters'],
    ['wt.part.WTPart|com.acme.Bolt|com.acme.HexBolt', 'wt.part.WTPart', 'masters'],
    ['WCTYPE|wt.epm.EPMDocument|com.acme.Drawing', 'wt.epm.EPMDocument', 'masters'],
    // the catalog's other versioned classes, plain classes, a dataset's classes, soft types
    ['wt.change2.WTChangeOrder2', 'wt.change2.WTChangeOrder2', 'masters'],
    ['wt.change2.WTChangeOrder2|com.acme.UrgentChange', 'wt.change2.WTChangeOrder2', 'masters'],
    ['wt.workflow.engine.WfProcess', 'wt.workflow.engine.WfProcess', 'objects'],
    ['com.acme.qa.TestReport', 'com.acme.qa.TestReport', 'objects'],
    // a versioned class a dataset declared, numbered like the catalog's own
    ['com.acme.Versioned', 'com.acme.Versioned', 'masters'],
    ['com.acme.SoftwarePart', 'wt.part.WTPart', 'masters'],
    ['WCTYPE|wt.part.WTPart|com.acme.SoftwarePart', 'wt.part.WTPart', 'masters'],
    ['com.acme.ReviewTask', 'wt.workflow.work.WorkItem', 'objects'],
    ['WCTYPE|wt.workflow.work.WorkItem|com.acme.ReviewTask', 'wt.workflow.work.WorkItem', 'objects'],
  ])('%s uses the rule of %s (numbers kept in %s)', (name, cls, table) => {
    expect(parseClassName(catalog, name)).toEqual({ name, rule: { cls, table } });
  });

  it.each([
    'wt.doc.WTDocumentX',
    'WTDocument',
    'com.acme.Spec|wt.doc.WTDocument',
    'com.acme.SoftwarePart|com.acme.Bolt',
    'wt.doc.WTDocument|',
    'wt.doc.WTDocument||com.acme.Spec',
    'wt.doc.WTDocument|com acme',
    'wt.folder.Folder',
    '',
  ])('refuses %j as unknown', (name) => {
    expect(message(() => parseClassName(catalog, name))).toBe(`unknown class '${name}': ${NUMBERED}`);
  });

  it.each([
    ['wt.doc.WTDocumentMaster', 'wt.doc.WTDocumentMaster is the master of versioned objects, numbered by their class'],
    [
      'wt.enterprise.RevisionControlled',
      'wt.enterprise.RevisionControlled is abstract: objects are made of its subclasses',
    ],
    ['wt.part.WTPartUsageLink|com.acme.X', 'wt.part.WTPartUsageLink is not a class of objects (storage usageLink)'],
    ['wt.change2.IncludedIn2', 'wt.change2.IncludedIn2 is not a class of objects (storage link)'],
    [
      'com.acme.Covering',
      'com.acme.Covering is a soft type of wt.change2.IncludedIn2; wt.change2.IncludedIn2 is not a class of objects (storage link)',
    ],
  ])('refuses %s, which the catalog knows, saying why', (name, why) => {
    expect(message(() => parseClassName(catalog, name))).toBe(
      `class '${name}' cannot be numbered: ${why}; ${NUMBERED}`,
    );
  });

  it('cuts a very long class name short in the message', () => {
    const text = message(() => parseClassName(catalog, 'x'.repeat(5000)));
    expect(text).toBe(`unknown class '${'x'.repeat(77)}...': ${NUMBERED}`);
  });
});
