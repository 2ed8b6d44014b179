import { JetStreamApiError } from '@nats-io/jetstream';
import {
  ClosedConnectionError,
  InvalidArgumentError,
  NoRespondersError,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import { checkSubject, natsOutcome, subjectFor } from './nats-publisher.js';
import { streamCovers } from './broker-subjects.js';

describe('subjectFor', () => {
  it('puts the event type without its leading pdm. after the prefix', () => {
    expect(subjectFor('pdm.erp', 'pdm.object.created')).toBe('pdm.erp.object.created');
    expect(subjectFor('pdm', 'pdm.file.updated')).toBe('pdm.file.updated');
  });

  it('appends a type without the pdm. token whole', () => {
    expect(subjectFor('pdm.erp', 'object.created')).toBe('pdm.erp.object.created');
    expect(subjectFor('pdm.erp', 'pdmx.created')).toBe('pdm.erp.pdmx.created');
  });
});

describe('checkSubject', () => {
  it('accepts the root and tokens of letters, digits, _ and - under it', () => {
    expect(checkSubject('pdm', 'pdm')).toBeNull();
    expect(checkSubject('pdm.erp', 'pdm')).toBeNull();
    expect(checkSubject('pdm.Plant_7.sap-erp', 'pdm')).toBeNull();
    expect(checkSubject(['pdm', ...Array<string>(15).fill('a')].join('.'), 'pdm')).toBeNull();
  });

  it('refuses a prefix outside the root', () => {
    expect(checkSubject('erp.pdm', 'pdm')).toBe(
      'the subject prefix "erp.pdm" must start with the root "pdm" (as in "pdm.erp")',
    );
    expect(checkSubject('pdmx.erp', 'pdm')).toMatch(/must start with the root "pdm"/);
    expect(checkSubject('PDM.erp', 'pdm')).toMatch(/must start with the root "pdm"/);
  });

  it('refuses wildcards', () => {
    expect(checkSubject('pdm.*', 'pdm')).toBe(
      'the subject prefix "pdm.*" has a wildcard ("*"): a subscription publishes on one subject',
    );
    expect(checkSubject('pdm.>', 'pdm')).toMatch(/has a wildcard \(">"\)/);
    expect(checkSubject('pdm.erp*', 'pdm')).toMatch(/has a wildcard \("erp\*"\)/);
  });

  it('refuses empty tokens and other characters', () => {
    expect(checkSubject('', 'pdm')).toBe('the subject prefix is empty');
    expect(checkSubject('pdm..erp', 'pdm')).toMatch(/has an empty token/);
    expect(checkSubject('pdm.erp.', 'pdm')).toMatch(/has an empty token/);
    expect(checkSubject('.pdm', 'pdm')).toMatch(/has an empty token/);
    expect(checkSubject('pdm.e rp', 'pdm')).toBe(
      'the subject prefix "pdm.e rp" has the token "e rp": tokens are letters, digits, _ and -',
    );
    expect(checkSubject('pdm.ärp', 'pdm')).toMatch(/has the token "ärp"/);
    expect(checkSubject('pdm.erp\u0000', 'pdm')).toMatch(/has the token/);
  });

  it('refuses more than 16 tokens or 200 characters', () => {
    expect(checkSubject(['pdm', ...Array<string>(16).fill('a')].join('.'), 'pdm')).toBe(
      'the subject prefix has 17 tokens, more than 16',
    );
    expect(checkSubject(`pdm.${'a'.repeat(196)}`, 'pdm')).toBeNull();
    expect(checkSubject(`pdm.${'a'.repeat(197)}`, 'pdm')).toBe('the subject prefix has 201 characters, more than 200');
  });
});

describe('streamCovers', () => {
  it('is true for filters that store every subject under the root', () => {
    expect(streamCovers(['pdm.>'], 'pdm')).toBe(true);
    expect(streamCovers(['other.>', 'pdm.>'], 'pdm')).toBe(true);
    expect(streamCovers(['*.>'], 'pdm')).toBe(true);
    expect(streamCovers(['>'], 'pdm')).toBe(true);
  });

  it('is false for filters that store only some of them', () => {
    expect(streamCovers([], 'pdm')).toBe(false);
    expect(streamCovers(['pdm.*'], 'pdm')).toBe(false);
    expect(streamCovers(['pdm.erp.>'], 'pdm')).toBe(false);
    expect(streamCovers(['pdm'], 'pdm')).toBe(false);
    expect(streamCovers(['*'], 'pdm')).toBe(false);
    expect(streamCovers(['pdmx.>', 'other.>'], 'pdm')).toBe(false);
  });
});

describe('natsOutcome', () => {
  const subject = 'pdm.erp.object.created';

  it('makes no responders (no stream on the subject) a retry that names the stream', () => {
    // What the client throws then: "jetstream is not enabled", caused by the request's no-responders error.
    const err = new Error('jetstream is not enabled', {
      cause: new RequestError('no responders', { cause: new NoRespondersError(subject) }),
    });
    expect(natsOutcome(err, subject, 'PDM_EVENTS')).toEqual({
      kind: 'retry',
      error:
        'no JetStream stream stores "pdm.erp.object.created" (is the stream "PDM_EVENTS" deleted, or JetStream down?)',
    });
  });

  it('makes a timeout and a closed connection a retry', () => {
    expect(natsOutcome(new TimeoutError(), subject, 'S')).toEqual({
      kind: 'retry',
      error: 'no acknowledgement from JetStream for "pdm.erp.object.created" in time',
    });
    expect(natsOutcome(new ClosedConnectionError(), subject, 'S')).toEqual({
      kind: 'retry',
      error: 'publishing on "pdm.erp.object.created" failed: closed connection',
    });
  });

  it('makes JetStream refusals a retry, except a message too large, which is rejected', () => {
    const unavailable = new JetStreamApiError({ code: 503, err_code: 10008, description: 'jetstream unavailable' });
    expect(natsOutcome(unavailable, subject, 'S')).toEqual({
      kind: 'retry',
      error: 'JetStream refused "pdm.erp.object.created": jetstream unavailable (code 10008)',
    });
    const tooLarge = new JetStreamApiError({
      code: 400,
      err_code: 10054,
      description: 'message size exceeds maximum allowed',
    });
    expect(natsOutcome(tooLarge, subject, 'S')).toEqual({
      kind: 'rejected',
      error: 'JetStream refused "pdm.erp.object.created": message size exceeds maximum allowed (code 10054)',
    });
  });

  it('rejects a message the client refuses to send', () => {
    const err = InvalidArgumentError.format('payload', 'max_payload size exceeded');
    expect(natsOutcome(err, subject, 'S')).toEqual({
      kind: 'rejected',
      error: `cannot publish on "pdm.erp.object.created": ${err.message}`,
    });
  });
});
