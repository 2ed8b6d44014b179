import { message as thrownMessage } from '../common/thrown-message.fixtures.js';
import { DatasetError, validateDataset } from './dataset.js';

const base = {
  format: 'pdm-dataset/1',
  containers: [{ name: 'C', class: 'wt.pdmlink.PDMLinkProduct' }],
};
const doc = { class: 'wt.doc.WTDocument', number: 'D-1', name: 'n', container: 'C' };

const message = (data: unknown): string => thrownMessage(() => validateDataset(data), DatasetError);

describe('validateDataset', () => {
  it('reads a small dataset with its defaults', () => {
    const d = validateDataset({
      ...base,
      users: [{ name: 'u', password: 'pw', admin: null }],
      objects: [{ ...doc, files: [{ role: 'PRIMARY', filename: 'a.txt', text: 'x' }] }],
    });
    expect(d.users).toEqual([
      { name: 'u', password: 'pw', admin: false, fullName: null, email: null, disabled: false },
    ]);
    expect(d.objects[0]).toMatchObject({ version: 'A', iteration: 1, state: 'INWORK', subtype: null, title: null });
    expect(d.objects[0].files).toEqual([
      { role: 'PRIMARY', filename: 'a.txt', mimetype: 'text/plain', bytes: Buffer.from('x') },
    ]);
  });

  it.each<[unknown, string]>([
    [[], '(root): must be an object'],
    [{}, 'format: must be "pdm-dataset/1"'],
    [{ ...base, users: [{ name: null, password: 'x' }] }, 'users[0].name: is required'],
    [{ ...base, users: [{ name: 'a:b', password: 'x' }] }, 'users[0].name: must not contain ":" or control characters'],
    [{ ...base, users: [{ name: 'u', password: ' ' }] }, 'users[0].password: must not be empty'],
    [{ ...base, users: [{ name: 'u', password: 'x', admin: 'yes' }] }, 'users[0].admin: must be true or false'],
    [{ ...base, roles: ['lower'] }, 'roles[0]: must be an upper-case role name'],
    [
      { ...base, containers: [{ name: 'C', class: 'wt.pdmlink.PDMLinkProduct', members: { bob: 'owner' } }] },
      'containers[0].members.bob: unknown member role "owner" (expected reader, author, manager)',
    ],
    [
      {
        ...base,
        containers: [
          { name: 'C', class: 'wt.pdmlink.PDMLinkProduct', numbering: [{ class: 'wt.doc.WTDocument', width: 40 }] },
        ],
      },
      'containers[0].numbering[0].width: must be an integer from 1 to 18',
    ],
    [{ ...base, objects: [{ ...doc, colour: 'red' }] }, 'objects[0]: unknown field "colour"'],
    [{ ...base, objects: [{ ...doc, name: 'x'.repeat(1001) }] }, 'objects[0].name: is longer than 1000 characters'],
    [
      { ...base, objects: [{ ...doc, class: 'wt.epm.EPMDocument' }] },
      'objects[0].subtype: is required for wt.epm.EPMDocument',
    ],
    [{ ...base, objects: [{ ...doc, subtype: 'CADPART' }] }, 'objects[0].subtype: is only for wt.epm.EPMDocument'],
    [
      { ...base, objects: [{ ...doc, class: 'wt.part.WTPart', title: 'T' }] },
      'objects[0].title: is only for wt.doc.WTDocument',
    ],
    [
      { ...base, objects: [{ ...doc, state: 'DONE' }] },
      'objects[0].state: unknown state "DONE" (expected INWORK, UNDERREVIEW, RELEASED, OBSOLETE)',
    ],
    [{ ...base, objects: [{ ...doc, version: 'b' }] }, 'objects[0].version: "b" is not a version letter (A, B, … AA)'],
    [
      { ...base, objects: [{ ...doc, createdAt: '2026-01-01' }] },
      'objects[0].createdAt: "2026-01-01" is not an ISO-8601 timestamp with a time zone',
    ],
    [
      { ...base, objects: [{ ...doc, attributes: { '1x': 1 } }] },
      'objects[0].attributes: "1x" is not an attribute name',
    ],
    [
      { ...base, objects: [{ ...doc, attributes: { a: [] } }] },
      'objects[0].attributes.a: must be a string, number, boolean, null or { "ref": { "class": "<class>", "number": "<number or name>" } }',
    ],
    [
      { ...base, objects: [{ ...doc, files: [{ role: 'PRIMARY', filename: 'a', text: 'x', base64: 'eA==' }] }] },
      'objects[0].files[0]: give exactly one of "text" or "base64"',
    ],
    [
      { ...base, objects: [{ ...doc, files: [{ role: 'PRIMARY', filename: 'a' }] }] },
      'objects[0].files[0]: give exactly one of "text" or "base64"',
    ],
    [
      { ...base, objects: [{ ...doc, files: [{ role: 'PRIMARY', filename: 'a', mimetype: 'text', text: 'x' }] }] },
      'objects[0].files[0].mimetype: "text" is not a media type',
    ],
    [
      { ...base, objects: [{ ...doc, class: 'wt.part.WTPart', uses: [{ number: 'P', quantity: 0 }] }] },
      'objects[0].uses[0].quantity: must be a positive number',
    ],
    [
      { ...base, objects: [{ class: 'wt.vc.views.View', state: 'x' }] },
      'objects[0]: give a number or a name (references find the object by them)',
    ],
    [
      { ...base, links: [{ class: 'wt.vc.views.WTViewLink', a: {}, b: 'x' }] },
      'links[0].a: a reference is a number (or name), or { "class": …, "number": … }',
    ],
    [{ ...base, reports: [{ name: 'R', container: 'C' }] }, 'reports[0].qml: is required'],
  ])('refuses %j: %s', (data, expected) => {
    expect(message(data)).toBe(expected);
  });
});
