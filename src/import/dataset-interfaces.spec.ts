import { standardCatalog } from '../catalog/catalog-load.js';
import type { CatalogFile } from '../catalog/catalog-model.js';
import { validateDataset } from './dataset.js';

/** A dataset's types with an interface, and a class implementing it. */
const TYPES: CatalogFile = {
  interfaces: [{ name: 'com.acme.Checked', properties: { 'state.state': { type: 'string' } } }],
  classes: [{ name: 'com.acme.Check', parent: 'wt.fc.Item', interfaces: ['com.acme.Checked'] }],
};

describe('interfaces in a dataset', () => {
  it('are declared with its types, and declared again by a later import, which replaces them', () => {
    const first = validateDataset({ format: 'pdm-dataset/1', types: TYPES });
    expect(first.catalog.isA('com.acme.Check', 'com.acme.Checked')).toBe(true);
    // The catalog in force once imported: the standard one with the types users declared.
    const inForce = standardCatalog().extend([{ where: 'catalog_types', file: TYPES, user: true }], 'imported');
    const again = validateDataset({ format: 'pdm-dataset/1', types: TYPES }, inForce);
    expect(again.catalog.findClass('com.acme.Checked')!.interface).toBe(true);
  });

  it('stay declared when a later import declares other types', () => {
    const inForce = standardCatalog().extend([{ where: 'catalog_types', file: TYPES, user: true }], 'imported');
    const other = validateDataset(
      { format: 'pdm-dataset/1', types: { classes: [{ name: 'com.acme.Check', parent: 'wt.fc.Item' }] } },
      inForce,
    );
    expect(other.catalog.findClass('com.acme.Checked')!.interface).toBe(true);
    expect(other.catalog.isA('com.acme.Check', 'com.acme.Checked')).toBe(false);
  });
});
