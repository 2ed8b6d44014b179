import type { ObjectRecord } from '../objects/versioned/object-records.repository.js';
import { apiTime, objectItem, objectPointer, userItem, userPointer } from './object-api-answers.js';

const BASE = 'http://h/pdm';

const record: ObjectRecord = {
  iterationId: 13,
  masterId: 5,
  branchId: 13,
  cls: 'wt.epm.EPMDocument',
  softType: null,
  subtype: 'CADASSEMBLY',
  number: '0000500001',
  name: 'drive_unit.asm',
  containerId: 1,
  containerName: 'Drive Unit',
  containerClass: 'wt.pdmlink.PDMLinkProduct',
  version: 'A',
  iteration: 3,
  latest: true,
  state: 'INWORK',
  title: null,
  description: null,
  note: null,
  attributes: {},
  createdBy: 'alice',
  modifiedBy: 'bob',
  createdById: 2,
  modifiedById: 3,
  createdAt: new Date('2026-03-02T10:00:00.123Z'),
  modifiedAt: new Date('2026-03-04T16:30:00Z'),
  memberRole: 'author',
  checkedOutBy: null,
  checkedOutById: null,
  working: false,
};

describe('api/1.0 answers', () => {
  it('write times in UTC to the second, without zone', () => {
    expect(apiTime(new Date('2026-03-02T10:00:00.999Z'))).toBe('2026-03-02T10:00:00');
  });

  it('point to an object and a user with absolute URLs', () => {
    expect(
      objectPointer(BASE, 'parts', { iterationId: 4, cls: 'wt.part.WTPart', number: 'P-1', name: 'Housing' }),
    ).toEqual({
      oid: 'OR:wt.part.WTPart:4',
      name: 'Housing',
      number: 'P-1',
      url: 'http://h/pdm/api/1.0/parts/OR:wt.part.WTPart:4',
    });
    expect(userPointer(BASE, { id: 2, name: 'alice', fullName: 'Alice Author' })).toEqual({
      oid: 'OR:wt.org.WTUser:2',
      name: 'alice',
      url: 'http://h/pdm/api/1.0/users/OR:wt.org.WTUser:2',
    });
    expect(userItem(BASE, { id: 2, name: 'alice', fullName: null })).toEqual({
      oid: 'OR:wt.org.WTUser:2',
      url: 'http://h/pdm/api/1.0/users/OR:wt.org.WTUser:2',
      details: 'http://h/pdm/api/1.0/users/OR:wt.org.WTUser:2',
      name: 'alice',
      fullName: null,
    });
  });

  it('show a CAD document in the original item shape', () => {
    const alice = 'http://h/pdm/api/1.0/users/OR:wt.org.WTUser:2';
    const bob = 'http://h/pdm/api/1.0/users/OR:wt.org.WTUser:3';
    expect(objectItem(BASE, 'epmdocuments', record)).toEqual({
      oid: 'OR:wt.epm.EPMDocument:13',
      url: 'http://h/pdm/api/1.0/epmdocuments/OR:wt.epm.EPMDocument:13',
      details: 'http://h/pdm/objects/OR:wt.epm.EPMDocument:13',
      name: 'drive_unit.asm',
      number: '0000500001',
      cadname: 'drive_unit.asm',
      version: 'A.3',
      modified: '2026-03-04T16:30:00',
      path: '/Drive Unit/drive_unit.asm',
      item: {
        oid: 'OR:wt.epm.EPMDocument:13',
        name: 'drive_unit.asm',
        number: '0000500001',
        cadname: 'drive_unit.asm',
        doctype: 'CADASSEMBLY',
        type: 'wt.epm.EPMDocument',
        state: 'INWORK',
        version: 'A.3',
        location: '/Drive Unit',
        path: '/Drive Unit/drive_unit.asm',
        created: '2026-03-02T10:00:00',
        modified: '2026-03-04T16:30:00',
        creator: { oid: 'OR:wt.org.WTUser:2', url: alice, details: alice, name: 'alice' },
        modifier: { oid: 'OR:wt.org.WTUser:3', url: bob, details: bob, name: 'bob' },
        isCheckedOut: false,
        isLatestIteration: true,
      },
    });
  });

  it('leave cadname and doctype out for other objects and show the soft type', () => {
    const part = { ...record, cls: 'wt.part.WTPart', subtype: null, softType: 'com.acme.SoftwarePart', latest: false };
    const answer = objectItem(BASE, 'parts', part);
    expect(answer).not.toHaveProperty('cadname');
    expect(answer.item).not.toHaveProperty('cadname');
    expect(answer.item).not.toHaveProperty('doctype');
    expect([answer.item.type, answer.item.isLatestIteration]).toEqual(['com.acme.SoftwarePart', false]);
  });
});
