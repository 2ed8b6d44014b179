import pg from 'pg';
import { LOCK_WAIT_MS, lockWaiters, withinMs } from '../helpers/bounded-wait.js';
import { expectBusy } from '../helpers/expect-unavailable.js';
import { testDatabaseUrl } from '../helpers/test-database.js';
import { objectsFixture, type ObjectBody, type ObjectsFixture } from './objects-fixtures.js';

const NAME = 'OLW';
/**
 * Changes of objects, their structures and files wait for a lock another transaction holds (here
 * a connection of the test, as another instance's change would) at most DB_LOCK_TIMEOUT_MS: then
 * 503 with Retry-After and nothing changed, while the pool serves everybody else meanwhile.
 */
describe('changes waiting for a lock held elsewhere', () => {
  let f: ObjectsFixture;
  let holder: pg.Client;
  let doc: ObjectBody;
  let other: ObjectBody;

  beforeAll(async () => {
    f = await objectsFixture(NAME, { DB_POOL_MAX: '3', DB_CONNECT_TIMEOUT_MS: '2000', DB_LOCK_TIMEOUT_MS: '500' });
    doc = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-doc`, name: 'held' });
    other = await f.create({ type: 'wt.doc.WTDocument', number: `${NAME}-other`, name: 'free' });
    holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
  });
  afterEach(async () => {
    await holder.query('ROLLBACK');
  });
  afterAll(async () => {
    await holder.end();
    await f.close();
  });

  const holdMaster = async (number: string) => {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM masters WHERE number = $1 FOR NO KEY UPDATE', [number]);
  };

  it('a state change gives up with 503 while three others read on', async () => {
    await holdMaster(doc.number);
    const changes = [0, 1, 2].map((i) =>
      f
        .as(i ? 'alice' : 'carol')
        .post(`/objects/${doc.number}/state`, { state: 'UNDERREVIEW' })
        .then((r) => r),
    );
    await lockWaiters(f.db, 1, 'the changes wait for the locked object');
    const reads = await withinMs(
      Promise.all([0, 1, 2].map(() => f.as('bob').get(`/objects/${other.number}`))),
      LOCK_WAIT_MS,
      'reads beside changes waiting for a lock',
    );
    for (const read of reads) expect([read.status, read.body.number]).toEqual([200, other.number]);
    (await withinMs(Promise.all(changes), LOCK_WAIT_MS, 'changes waiting for a locked object')).forEach((res) =>
      expectBusy(res),
    );
    await holder.query('ROLLBACK');
    const now = await f.as('bob').get(`/objects/${doc.number}`);
    expect(now.body.state).toBe('INWORK');
  });

  it('a usage link add gives up with 503 while another holds the structures', async () => {
    const parent = await f.create({ type: 'wt.part.WTPart', number: `${NAME}-asm`, name: 'asm' });
    const member = await f.create({ type: 'wt.part.WTPart', number: `${NAME}-m`, name: 'm' });
    await holder.query('BEGIN');
    await holder.query(`SELECT pg_advisory_xact_lock(hashtext('pdm.usage_structure'))`);
    const res = await withinMs(
      f.as('alice').post(`/objects/${parent.number}/uses`, { member: member.number }),
      LOCK_WAIT_MS,
      'a link add waiting for the structures',
    );
    expectBusy(res);
    await holder.query('ROLLBACK');
    const { rows } = await f.db.query(
      `SELECT count(*)::int AS n FROM usage_links ul JOIN iterations i ON i.id = ul.parent_id
       JOIN masters m ON m.id = i.master_id WHERE m.number = $1`,
      [parent.number],
    );
    expect(rows[0].n).toBe(0);
  });

  it('a file upload to a locked object gives up with 503 and stores no file', async () => {
    await holdMaster(doc.number);
    const res = await withinMs(
      f.as('alice').post(`/files/${doc.number}/held.txt`).set('Content-Type', 'application/octet-stream').send('x'),
      LOCK_WAIT_MS,
      'an upload waiting for a locked object',
    );
    expectBusy(res);
    await holder.query('ROLLBACK');
    const { rows } = await f.db.query(
      `SELECT count(*)::int AS n FROM content_items ci JOIN iterations i ON i.id = ci.iteration_id
       JOIN masters m ON m.id = i.master_id WHERE m.number = $1`,
      [doc.number],
    );
    expect(rows[0].n).toBe(0);
  });
});
