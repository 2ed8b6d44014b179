import { createObject, useEventsTest, handledUpTo, setState, subscribe } from './events-fixtures.js';
import type { Received } from './webhook-receiver.js';

/** Which events a subscription gets: what its filter selects, of what its owner may read when it is delivered. */
describe('what a subscription delivers', () => {
  const w = useEventsTest();
  const { t, db, containers } = w;

  const summary = (got: Received[]) => got.map((r) => `${r.event.data.action} ${r.event.data.object?.number}`);

  it('selects by action (exact or prefix), by type with its sub-types, and by the state left', async () => {
    const c = await containers('fl');
    const base = { container: c.main.name };
    const all = await subscribe(t.http, 'carol', {
      ...base,
      name: 'all',
      actions: ['objects.*'],
      url: w.receiver.url('/all'),
    });
    const subs = [
      all,
      await subscribe(t.http, 'carol', {
        ...base,
        name: 'state',
        actions: ['objects.state'],
        url: w.receiver.url('/state'),
      }),
      await subscribe(t.http, 'carol', {
        ...base,
        name: 'documents',
        actions: ['objects.*'],
        type: 'wt.doc.WTDocument',
        url: w.receiver.url('/documents'),
      }),
      await subscribe(t.http, 'carol', {
        ...base,
        name: 'software',
        actions: ['objects.create'],
        type: 'com.acme.SoftwarePart',
        url: w.receiver.url('/software'),
      }),
      await subscribe(t.http, 'carol', {
        ...base,
        name: 'released',
        actions: ['objects.state'],
        state: 'RELEASED',
        url: w.receiver.url('/released'),
      }),
    ];
    const doc = await createObject(t.http, c.main.name, `${c.tag}-1`);
    const part = await createObject(t.http, c.main.name, `${c.tag}-2`, 'wt.part.WTPart');
    const boot = await createObject(t.http, c.main.name, `${c.tag}-3`, 'com.acme.BootloaderPart');
    await setState(t.http, doc.number, 'UNDERREVIEW');
    await setState(t.http, doc.number, 'RELEASED');
    await setState(t.http, part.number, 'UNDERREVIEW');

    const everything = await w.receiver.waitFor('/all', 6);
    const last = everything[5].event.sequence!;
    for (const s of subs) await handledUpTo(db, s.id, last);

    expect(summary(everything)).toEqual([
      `objects.create ${doc.number}`,
      `objects.create ${part.number}`,
      `objects.create ${boot.number}`,
      `objects.state ${doc.number}`,
      `objects.state ${doc.number}`,
      `objects.state ${part.number}`,
    ]);
    expect(summary(w.receiver.on('/state'))).toEqual([
      `objects.state ${doc.number}`,
      `objects.state ${doc.number}`,
      `objects.state ${part.number}`,
    ]);
    expect(summary(w.receiver.on('/documents'))).toEqual([
      `objects.create ${doc.number}`,
      `objects.state ${doc.number}`,
      `objects.state ${doc.number}`,
    ]);
    expect(summary(w.receiver.on('/software'))).toEqual([`objects.create ${boot.number}`]);
    expect(w.receiver.on('/software')[0].event.data.object).toMatchObject({ type: 'com.acme.BootloaderPart' });
    const released = w.receiver.on('/released');
    expect(summary(released)).toEqual([`objects.state ${doc.number}`]);
    expect(released[0].event.data.detail).toMatchObject({ from: 'UNDERREVIEW', to: 'RELEASED' });
  });

  it("checks the owner's rights when delivering: not after their role is gone, never in containers without one", async () => {
    const c = await containers('rg');
    const carol = await subscribe(t.http, 'carol', {
      name: 'carol main',
      actions: ['objects.*'],
      container: c.main.name,
      url: w.receiver.url('/carol'),
    });
    // No container filter: only carol's rights keep the other container's events from it.
    const wide = await subscribe(t.http, 'carol', {
      name: 'carol wide',
      actions: ['objects.*'],
      container: c.main.name,
      url: w.receiver.url('/carol-wide'),
    });
    await db.query('UPDATE event_subscriptions SET container_id = NULL WHERE id = $1', [wide.id]);
    await subscribe(t.http, 'admin', {
      name: `admin ${c.tag}`,
      actions: ['objects.*'],
      url: w.receiver.url('/admin'),
    });

    const a = await createObject(t.http, c.main.name, `${c.tag}-1`);
    const o = await createObject(t.http, c.other.name, `${c.tag}-O1`);
    const seen = await w.receiver.waitFor('/admin', 2);
    for (const s of [carol, wide]) await handledUpTo(db, s.id, seen[1].event.sequence!);
    expect(summary(w.receiver.on('/carol'))).toEqual([`objects.create ${a.number}`]);
    expect(summary(w.receiver.on('/carol-wide'))).toEqual([`objects.create ${a.number}`]);

    const removed = await db.query(
      `DELETE FROM memberships WHERE container_id = $1 AND user_id = (SELECT id FROM users WHERE name = 'carol')`,
      [c.main.id],
    );
    expect(removed.rowCount).toBe(1);
    const b = await createObject(t.http, c.main.name, `${c.tag}-2`);
    await setState(t.http, a.number, 'UNDERREVIEW');
    const after = await w.receiver.waitFor('/admin', 4);
    for (const s of [carol, wide]) await handledUpTo(db, s.id, after[3].event.sequence!);

    expect(
      summary(
        after.filter(
          (r) => r.event.data.object?.container === c.main.name || r.event.data.object?.container === c.other.name,
        ),
      ),
    ).toEqual([
      `objects.create ${a.number}`,
      `objects.create ${o.number}`,
      `objects.create ${b.number}`,
      `objects.state ${a.number}`,
    ]);
    expect(summary(w.receiver.on('/carol'))).toEqual([`objects.create ${a.number}`]);
    expect(summary(w.receiver.on('/carol-wide'))).toEqual([`objects.create ${a.number}`]);
  });
});
