import { ConflictException } from '@nestjs/common';
import { StoreUnavailableError } from '../stores/blob-store.js';
import { tusErrorAnswer } from './tus-errors.js';

describe('tusErrorAnswer', () => {
  it('keeps the status and text of a tus protocol error, trimmed', () => {
    expect(tusErrorAnswer({ status_code: 409, body: 'Upload-Offset conflict\n' })).toEqual({
      status_code: 409,
      body: 'Upload-Offset conflict',
    });
  });

  it('names the status of a protocol error that has no text', () => {
    expect(tusErrorAnswer({ status_code: 423, body: '' })).toEqual({ status_code: 423, body: 'Locked' });
  });

  it('keeps the status and message of an HTTP exception', () => {
    expect(tusErrorAnswer(new ConflictException('FT-1 is checked out by alice'))).toEqual({
      status_code: 409,
      body: 'FT-1 is checked out by alice',
    });
  });

  it('answers an unreachable store 503 and anything else 500 without its details', () => {
    const down = new StoreUnavailableError('postgres', new Error('connection refused'));
    expect(tusErrorAnswer(down)).toEqual({ status_code: 503, body: down.message });
    expect(tusErrorAnswer(new TypeError('cannot read x of undefined'))).toEqual({
      status_code: 500,
      body: 'internal error',
    });
  });
});
