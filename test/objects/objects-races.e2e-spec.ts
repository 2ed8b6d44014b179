import type request from 'supertest';
import { counterOf } from '../numbers/numbers-fixtures.js';
import { LOCK_WAIT_MS, lockWaiters, withinMs } from '../helpers/bounded-wait.js';
import { interleave as interleaveUnder } from '../helpers/interleave.js';
import { objectsFixture, type ObjectsFixture } from './objects-fixtures.js';

const NAME = `OR${process.pid}`;

/**
 * Changes of one object forced to interleave: a connection of the test holds a table in SHARE
 * mode, which lets requests read (and lock master rows) but not write, until both requests wait;
 * then it lets go. Each guard decides what the second request sees once the first has committed.
 */
describe('objects under concurrent requests', () => {
  let f: ObjectsFixture;
  beforeAll(async () => {
    f = await objectsFixture(NAME);
    // One listening server: requests running at the same time must not each start and stop their own.
    await f.t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => f.close());

  /** Starts both requests while `lock` holds, once each waits; answers both (bounded waits). */
  const interleave = (lock: string, first: () => request.Test, second: () => request.Test) =>
    interleaveUnder(f.db, lock, first, second);

  const doc = (number: string) => ({
    type: 'wt.doc.WTDocument',
    container: f.main.name,
    number,
    name: `doc ${number}`,
  });
  const masters = async (number: string) =>
    (await f.db.query('SELECT count(*)::int AS n FROM masters WHERE number = $1', [number])).rows[0].n;

  /** Without the unique key (class, number) both would be stored. */
  it('stores one of two creates of the same number and answers the other 409', async () => {
    const [a, b] = await interleave(
      'LOCK TABLE masters IN SHARE MODE',
      () => f.as('alice').post('/objects', doc(`${NAME}-same`)),
      () => f.as('carol').post('/objects', doc(`${NAME}-same`)),
    );
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.message).toBe(
      `number: a wt.doc.WTDocument with number ${NAME}-same exists already; nothing was created`,
    );
    expect(await masters(`${NAME}-same`)).toBe(1);
  });

  /**
   * The first create holds the rule row (reserved, not committed) while it waits to insert; the
   * second waits for the row and then reserves after the first's number. Without the row lock
   * held to the end of the transaction both would take the same number.
   */
  it('gives two creates with generated numbers consecutive numbers', async () => {
    const [a, b] = await interleave(
      'LOCK TABLE masters IN SHARE MODE',
      () => f.as('alice').post('/objects', doc('generate')),
      () => f.as('alice').post('/objects', doc('generate')),
    );
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.number, b.body.number].sort()).toEqual([`${NAME}-D0001`, `${NAME}-D0002`]);
    expect(await counterOf(f.db, f.main.id, 'wt.doc.WTDocument')).toBe('3');
  });

  /**
   * Another transaction stores the number the rule hands out next and keeps it open: the create
   * waits for it on the unique key, is refused once it commits, and its rollback gives the
   * number back (the counter stays); the next create skips the taken number.
   */
  it('gives a refused create its generated number back', async () => {
    const other = await f.db.connect();
    let res: request.Response;
    let committed = false;
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO masters (class, number, name, container_id) VALUES ('wt.doc.WTDocument', $1, 'taken', $2)`,
        [`${NAME}-D0003`, f.main.id],
      );
      const pending = f
        .as('alice')
        .post('/objects', doc('generate'))
        .then((r) => r);
      await lockWaiters(f.db, 1, 'the create waits for the number the other transaction stored', {
        pending: [pending],
      });
      await other.query('COMMIT');
      committed = true;
      res = await withinMs(pending, LOCK_WAIT_MS, 'the create is answered once the other transaction commits');
    } finally {
      // Ending the connection of a failed wait lets go of the number, so the create finishes.
      other.release(!committed);
    }
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      `number: a wt.doc.WTDocument with number ${NAME}-D0003 exists already; nothing was created`,
    );
    expect(await counterOf(f.db, f.main.id, 'wt.doc.WTDocument')).toBe('3');
    expect((await f.as('alice').post('/objects', doc('generate'))).body.number).toBe(`${NAME}-D0004`);
    await f.db.query('DELETE FROM masters WHERE number = $1', [`${NAME}-D0003`]);
  });

  /**
   * Both ask INWORK → UNDERREVIEW. The first holds the master row and waits to write; the second
   * waits for the row, then reads UNDERREVIEW and is refused. Without the lock both would read
   * INWORK and both succeed, recording two transitions from INWORK.
   */
  it('lets one of two identical state changes through', async () => {
    await f.as('alice').post('/objects', doc(`${NAME}-st`));
    const [a, b] = await interleave(
      'LOCK TABLE iterations IN SHARE MODE',
      () => f.as('alice').post(`/objects/${NAME}-st/state`, { state: 'UNDERREVIEW' }),
      () => f.as('carol').post(`/objects/${NAME}-st/state`, { state: 'UNDERREVIEW' }),
    );
    expect([a.status, b.status]).toEqual([200, 409]);
    expect(b.body.message).toBe(
      `${NAME}-st A.1: cannot go from UNDERREVIEW to UNDERREVIEW: from UNDERREVIEW the lifecycle allows RELEASED, INWORK`,
    );
    const events = await f.db.query(
      `SELECT detail FROM audit_events WHERE action = 'objects.state' AND object_number = $1`,
      [`${NAME}-st`],
    );
    expect(events.rows).toEqual([{ detail: { from: 'INWORK', to: 'UNDERREVIEW', version: 'A.1' } }]);
  });

  /**
   * Two revisions of A.1: the second waits for the first and revises what it made (B → C). Without
   * the lock both would make B.1, and one would fail on the unique (master, version, iteration).
   */
  it('serialises two revisions at once: B, then C, one latest iteration', async () => {
    const created = await f.as('alice').post('/objects', doc(`${NAME}-rev`));
    const [a, b] = await interleave(
      'LOCK TABLE iterations IN SHARE MODE',
      () => f.as('alice').post(`/objects/${NAME}-rev/revisions`),
      () => f.as('carol').post(`/objects/${NAME}-rev/revisions`),
    );
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.version, b.body.version]).toEqual(['B', 'C']);
    const { rows } = await f.db.query<{ v: string; latest: boolean }>(
      `SELECT version || '.' || iteration AS v, latest FROM iterations WHERE master_id = $1 ORDER BY version`,
      [Number(created.body.masterOid.split(':').pop())],
    );
    expect(rows).toEqual([
      { v: 'A.1', latest: false },
      { v: 'B.1', latest: false },
      { v: 'C.1', latest: true },
    ]);
  });

  /**
   * X uses Y and Y uses X, at once: each checks that its member does not contain it, then waits to
   * insert. The structure lock makes the second check after the first has committed, and refuse;
   * without it both checks pass and the two links make a cycle.
   */
  it('never lets two links close a cycle', async () => {
    for (const n of ['X', 'Y']) {
      await f
        .as('alice')
        .post('/objects', { type: 'wt.part.WTPart', container: f.main.name, number: `${NAME}-${n}`, name: n });
    }
    const [a, b] = await interleave(
      'LOCK TABLE usage_links IN SHARE MODE',
      () => f.as('alice').post(`/objects/${NAME}-X/uses`, { member: `${NAME}-Y` }),
      () => f.as('carol').post(`/objects/${NAME}-Y/uses`, { member: `${NAME}-X` }),
    );
    expect([a.status, b.status]).toEqual([201, 409]);
    expect(b.body.message).toBe(`member: ${NAME}-X contains ${NAME}-Y in its structure; using it would make a cycle`);
  });
});
