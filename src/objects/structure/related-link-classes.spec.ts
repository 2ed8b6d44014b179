import { checkUserTypes, standardCatalog } from '../../catalog/catalog-load.js';
import { relatedLinkClasses } from './related-link-classes.js';

const std = standardCatalog();

describe('relatedLinkClasses', () => {
  it('names the standard link classes of each relation', () => {
    expect(relatedLinkClasses(std)).toEqual({
      structure: ['wt.part.WTPartUsageLink'],
      members: ['wt.epm.structure.EPMMemberLink'],
      documents: ['wt.part.WTPartDescribeLink', 'wt.part.WTPartDocumentLink'],
      documentMasters: ['wt.part.WTPartReferenceLink'],
      drawings: ['wt.epm.build.EPMBuildRule'],
      includedIn: ['wt.change2.IncludedIn2'],
      affected: ['wt.change2.AffectedActivityData'],
    });
  });

  it('adds the classes users declared below them, each where its roles are kept', () => {
    const catalog = checkUserTypes(
      std,
      {
        classes: [
          { name: 'com.acme.ApprovalLink', parent: 'wt.part.WTPartDescribeLink' },
          { name: 'com.acme.SignedApprovalLink', parent: 'com.acme.ApprovalLink' },
          { name: 'com.acme.AbstractLink', parent: 'wt.part.WTPartDescribeLink', abstract: true },
          // Its own roles: the document by its master.
          {
            name: 'com.acme.StandardLink',
            parent: 'wt.part.WTPartDescribeLink',
            roles: { a: 'wt.part.WTPart', b: 'wt.doc.WTDocumentMaster' },
          },
          { name: 'com.acme.SpecLink', parent: 'wt.part.WTPartReferenceLink' },
          { name: 'com.acme.ToolDrawingRule', parent: 'wt.epm.build.EPMBuildRule' },
          { name: 'com.acme.AffectedData', parent: 'wt.change2.AffectedActivityData' },
          { name: 'com.acme.PartUsage', parent: 'wt.part.WTPartUsageLink' },
        ],
      },
      'types',
    );
    expect(relatedLinkClasses(catalog)).toEqual({
      structure: ['wt.part.WTPartUsageLink', 'com.acme.PartUsage'],
      members: ['wt.epm.structure.EPMMemberLink'],
      documents: [
        'wt.part.WTPartDescribeLink',
        'com.acme.ApprovalLink',
        'com.acme.SignedApprovalLink',
        'wt.part.WTPartDocumentLink',
      ],
      documentMasters: ['com.acme.StandardLink', 'wt.part.WTPartReferenceLink', 'com.acme.SpecLink'],
      drawings: ['wt.epm.build.EPMBuildRule', 'com.acme.ToolDrawingRule'],
      includedIn: ['wt.change2.IncludedIn2'],
      affected: ['wt.change2.AffectedActivityData', 'com.acme.AffectedData'],
    });
    // The standard catalog is unchanged.
    expect(relatedLinkClasses(std).documents).toEqual(['wt.part.WTPartDescribeLink', 'wt.part.WTPartDocumentLink']);
  });
});
