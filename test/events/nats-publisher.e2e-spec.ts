import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { NatsPublisher, subjectFor } from '../../src/events/brokers/nats-publisher.js';
import { NATS_SERVER, natsUnavailable, run, testEvent } from './test-brokers.js';

const reason = await natsUnavailable('the NATS JetStream tests are');

(reason ? describe.skip : describe)('publishing change events to NATS JetStream', () => {
  const stream = `PDM_TEST_${run}`;
  const root = `pdmtest_${run}`;
  const created: string[] = [stream];
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let publisher: NatsPublisher;

  const messages = async (name: string) => (await jsm.streams.info(name)).state.messages;

  beforeAll(async () => {
    nc = await connect({ servers: NATS_SERVER });
    jsm = await jetstreamManager(nc);
    publisher = await NatsPublisher.connect({ servers: NATS_SERVER, stream, subjectRoot: root, timeoutMs: 5000 });
  });

  afterAll(async () => {
    await publisher?.close();
    for (const name of created) await jsm?.streams.delete(name).catch(() => false);
    await nc?.drain();
  });

  it('creates the stream on <root>.> with file storage and a two-minute duplicate window', async () => {
    const info = await jsm.streams.info(stream);
    expect(info.config).toMatchObject({
      name: stream,
      subjects: [`${root}.>`],
      storage: 'file',
      duplicate_window: nanos(120_000),
    });
    expect(info.state.messages).toBe(0);
  });

  it('stores a published event once, as the exact CloudEvent JSON with its headers, before publish resolves', async () => {
    const e = testEvent('1001');
    const subject = subjectFor(`${root}.erp`, e.type);
    expect(subject).toBe(`${root}.erp.object.created`);

    expect(await publisher.publish(subject, e)).toEqual({ kind: 'delivered' });
    // Read right after publish resolved: the PubAck came first, so the stream holds the message.
    expect(await messages(stream)).toBe(1);

    const stored = await jsm.streams.getMessage(stream, { last_by_subj: subject });
    expect(stored).not.toBeNull();
    expect(stored!.subject).toBe(subject);
    expect(stored!.header.get('Nats-Msg-Id')).toBe(`1001:${subject}`);
    expect(stored!.header.get('Content-Type')).toBe('application/cloudevents+json');
    expect(stored!.string()).toBe(JSON.stringify(e));
    expect(stored!.json()).toEqual(e);
  });

  it('drops a second publish of the same event on the same subject, and reports it delivered', async () => {
    const e = testEvent('1002');
    const subject = subjectFor(`${root}.erp`, e.type);
    const before = await messages(stream);

    expect(await publisher.publish(subject, e)).toEqual({ kind: 'delivered' });
    expect(await publisher.publish(subject, e)).toEqual({ kind: 'delivered' });
    expect(await messages(stream)).toBe(before + 1);

    // Another subscription's subject: the same event is a message of its own there.
    const other = subjectFor(`${root}.mes`, e.type);
    expect(await publisher.publish(other, e)).toEqual({ kind: 'delivered' });
    expect(await messages(stream)).toBe(before + 2);
    const stored = await jsm.streams.getMessage(stream, { last_by_subj: other });
    expect(stored!.header.get('Nats-Msg-Id')).toBe(`1002:${other}`);
    expect(stored!.json()).toEqual(e);
  });

  it('uses an existing stream that stores the root, and refuses one that does not', async () => {
    const again = await NatsPublisher.connect({ servers: NATS_SERVER, stream, subjectRoot: root, timeoutMs: 5000 });
    await again.close();
    expect((await jsm.streams.info(stream)).config.subjects).toEqual([`${root}.>`]);

    const narrow = `PDM_TEST_NARROW_${run}`;
    created.push(narrow);
    await jsm.streams.add({ name: narrow, subjects: [`${root}_narrow.erp.>`] });
    await expect(
      NatsPublisher.connect({ servers: NATS_SERVER, stream: narrow, subjectRoot: `${root}_narrow`, timeoutMs: 5000 }),
    ).rejects.toThrow(
      `NATS at ${NATS_SERVER}: the JetStream stream "${narrow}" exists but stores "${root}_narrow.erp.>", ` +
        `not every subject under "${root}_narrow.>"`,
    );
  });

  it('fails to connect with the reason when no server answers', async () => {
    // Port 1 on the loopback: nothing listens there.
    await expect(
      NatsPublisher.connect({ servers: 'nats://user:secret@127.0.0.1:1', stream, subjectRoot: root, timeoutMs: 2000 }),
    ).rejects.toThrow(/^cannot connect to NATS at nats:\/\/\*\*\*@127\.0\.0\.1:1: /);
  });

  describe('when the stream is gone', () => {
    const gone = `PDM_TEST_GONE_${run}`;
    const goneRoot = `${root}_gone`;
    let orphan: NatsPublisher;

    beforeAll(async () => {
      created.push(gone);
      orphan = await NatsPublisher.connect({
        servers: NATS_SERVER,
        stream: gone,
        subjectRoot: goneRoot,
        timeoutMs: 1000,
      });
      expect(await jsm.streams.delete(gone)).toBe(true);
    });

    afterAll(async () => {
      await orphan?.close();
    });

    it('gives a retry outcome that says no stream stores the subject', async () => {
      const subject = `${goneRoot}.erp.object.created`;
      expect(await orphan.publish(subject, testEvent('1003'))).toEqual({
        kind: 'retry',
        error: `no JetStream stream stores "${subject}" (is the stream "${gone}" deleted, or JetStream down?)`,
      });
    });

    it('gives a retry outcome when something else takes the message and no acknowledgement comes', async () => {
      const subject = `${goneRoot}.mes.object.created`;
      // A plain subscriber that never answers, where the stream would have been.
      const received: string[] = [];
      const silent = nc.subscribe(subject, {
        callback: (_err, msg) => {
          received.push(msg.string());
        },
      });
      await nc.flush();
      try {
        expect(await orphan.publish(subject, testEvent('1004'))).toEqual({
          kind: 'retry',
          error: `no acknowledgement from JetStream for "${subject}" in time`,
        });
        await nc.flush();
        expect(received).toEqual([JSON.stringify(testEvent('1004'))]);
      } finally {
        silent.unsubscribe();
      }
    });
  });

  it('gives a retry outcome after close instead of throwing', async () => {
    const closing = await NatsPublisher.connect({ servers: NATS_SERVER, stream, subjectRoot: root, timeoutMs: 5000 });
    await closing.close();
    const outcome = await closing.publish(`${root}.erp.object.created`, testEvent('1005'));
    expect(outcome.kind).toBe('retry');
    expect(outcome).toEqual({ kind: 'retry', error: expect.stringMatching(/^publishing on ".*" failed: /) });
  });
});
