import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { b64, importFilesFixture, itemsOf, oidOf, removeFilesFixture } from '../files/files-fixtures.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { failEventsMarked, masterId, recorded } from './audit-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The file service records one event per change in the change's transaction: upload, replace,
 * delete, with the iteration it makes; a refused change records nothing, and a change whose
 * transaction fails after the write leaves neither the write nor an event.
 */
describe('audit events of file changes', () => {
  let db: pg.Pool;
  let master: string;
  const container = 'AF Files';

  const t = useTestApp();
  beforeAll(async () => {
    await importFilesFixture('AF');
    db = testPool();
    master = await masterId(db, DOC, 'AF-1');
  });
  afterAll(async () => {
    await removeFilesFixture(db, 'AF');
    await db.end();
  });

  const post = (path: string, body: object, user: readonly [string, string] = USERS.alice) =>
    request(t.http)
      .post(path)
      .auth(...user)
      .send(body);
  const del = (path: string, user: readonly [string, string] = USERS.alice) =>
    request(t.http)
      .delete(path)
      .auth(...user);
  const onAf1 = { user_name: 'alice', user: 'alice', object_class: 'wt.doc.WTDocumentMaster', object_number: 'AF-1' };

  it('records files.upload on the master: the file, its role, type, size and digest, never its bytes', async () => {
    const [res, events] = await recorded(db, () => post('/files/AF-1/audit-new.txt', { data: b64('hello\n') }));
    expect(res.status).toBe(201);
    expect(events).toEqual([
      {
        ...onAf1,
        action: 'files.upload',
        object_id: master,
        container,
        detail: {
          fileName: 'audit-new.txt',
          iteration: 'A.1',
          after: { role: 'SECONDARY', mimeType: 'text/plain', size: 6, sha256: sha('hello\n') },
        },
      },
    ]);
  });

  it('records files.replace with the file before and after', async () => {
    expect((await post('/files/AF-1/audit-replaced.txt', { data: b64('one') })).status).toBe(201);
    const [res, events] = await recorded(db, () =>
      post('/files/AF-1/audit-replaced.txt', { data: b64('two!'), role: 'PRIMARY' }),
    );
    expect(res.status).toBe(200);
    expect(events).toEqual([
      {
        ...onAf1,
        action: 'files.replace',
        object_id: master,
        container,
        detail: {
          fileName: 'audit-replaced.txt',
          iteration: 'A.1',
          before: { role: 'SECONDARY', mimeType: 'text/plain', size: 3, sha256: sha('one') },
          after: { role: 'PRIMARY', mimeType: 'text/plain', size: 4, sha256: sha('two!') },
        },
      },
    ]);
  });

  it('records files.delete with the file as it was', async () => {
    expect((await post('/files/AF-1/audit-gone.txt', { data: b64('bye') })).status).toBe(201);
    const [res, events] = await recorded(db, () => del('/files/AF-1/audit-gone.txt'));
    expect(res.status).toBe(200);
    expect(events).toEqual([
      {
        ...onAf1,
        action: 'files.delete',
        object_id: master,
        container,
        detail: {
          fileName: 'audit-gone.txt',
          iteration: 'A.1',
          before: { role: 'SECONDARY', mimeType: 'text/plain', size: 3, sha256: sha('bye') },
        },
      },
    ]);
  });

  it('records the new iteration a change makes, on the master every iteration shares', async () => {
    const [res, events] = await recorded(db, () =>
      post('/files/AF-2/audit-iterated.txt?iterate=true', { data: b64('x') }),
    );
    expect(res.status).toBe(201);
    expect(events).toEqual([
      {
        user_name: 'alice',
        user: 'alice',
        action: 'files.upload',
        object_class: 'wt.doc.WTDocumentMaster',
        object_id: await masterId(db, DOC, 'AF-2'),
        object_number: 'AF-2',
        container,
        detail: {
          fileName: 'audit-iterated.txt',
          iteration: 'A.3',
          newIteration: { from: 'A.2', to: 'A.3' },
          after: { role: 'SECONDARY', mimeType: 'text/plain', size: 1, sha256: sha('x') },
        },
      },
    ]);
  });

  it('records nothing for refused changes', async () => {
    const [refused, events] = await recorded(db, async () => [
      (await post('/files/AF-1/audit-no.txt', { data: b64('no') }, USERS.bob)).status,
      (await post('/files/AF-1/audit-no.txt', { data: b64('no') }, USERS.carol)).status,
      (await post('/files/AF-1/main.txt', { data: b64('no') }).set('If-Match', '"0000"')).status,
      (await post('/files/AF-1/audit-no.txt', { data: b64('no'), role: 'NOSUCHROLE' })).status,
      (await del('/files/AF-1/never-there.txt')).status,
      (await post(`/files/${await oidOf(db, DOC, 'AF-2', 1)}/audit-no.txt`, { data: b64('no') })).status,
    ]);
    expect(refused).toEqual([403, 404, 412, 400, 404, 409]);
    expect(events).toEqual([]);
  });

  it('stores neither the change nor its event when the transaction fails after the change', async () => {
    const undo = await failEventsMarked(db, 'doomed');
    try {
      const holder = await oidOf(db, DOC, 'AF-3');
      const before = await db.query('SELECT modified_at, modified_by FROM iterations WHERE id = $1', [
        Number(holder.split(':')[2]),
      ]);
      const [res, events] = await recorded(db, () =>
        post('/files/AF-3/doomed.txt?iterate=true', { data: b64('never stored') }),
      );
      expect(res.status).toBe(500);
      expect(res.body.message).toBe('internal error');
      expect(events).toEqual([]);
      // No file, no new iteration, the iteration untouched.
      expect(await oidOf(db, DOC, 'AF-3')).toBe(holder);
      expect(await itemsOf(db, holder)).toEqual([]);
      const after = await db.query('SELECT modified_at, modified_by FROM iterations WHERE id = $1', [
        Number(holder.split(':')[2]),
      ]);
      expect(after.rows).toEqual(before.rows);
    } finally {
      await undo();
    }
    // The same change without the failure goes through with its event.
    const [res, events] = await recorded(db, () => post('/files/AF-3/doomed.txt', { data: b64('stored') }));
    expect(res.status).toBe(201);
    expect(events.map((e) => e.action)).toEqual(['files.upload']);
  });
});
