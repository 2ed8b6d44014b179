import {
  badValueMessage,
  isDatabaseUnavailable,
  isForeignKeyViolation,
  isUniqueViolation,
  sqlState,
} from './database-errors.js';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['Prisma P1001', { code: 'P1001', message: "Can't reach database server" }],
    ['pool timeout P2024', { code: 'P2024' }],
    [
      'raw query on a killed connection',
      { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '57P01' } } } },
    ],
    [
      'adapter: not reachable',
      { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } },
    ],
    [
      'DriverAdapterError thrown raw',
      { name: 'DriverAdapterError', cause: { originalCode: '57P01', kind: 'postgres' } },
    ],
    ['pg: refused', { code: 'ECONNREFUSED' }],
    ['pg: terminated', new Error('Connection terminated unexpectedly')],
    ['initialisation', { name: 'PrismaClientInitializationError', message: 'x' }],
  ])('recognises %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['unique violation', { code: 'P2002' }],
    ['not found', { code: 'P2025' }],
    ['syntax error', { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '42601' } } } }],
    [
      'statement timeout',
      { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '57014' } } } },
    ],
    ['plain error', new Error('boom')],
    ['null', null],
  ])('does not mistake %s for an outage', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('badValueMessage', () => {
  it('maps a NUL character in text to a message for the caller', () => {
    const e = { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '22021' } } } };
    expect(sqlState(e)?.code).toBe('22021');
    expect(badValueMessage(e)).toBe('text values must not contain NUL characters or invalid UTF-8');
  });

  it('reads the SQLSTATE of a raw pg error and ignores Prisma codes', () => {
    expect(badValueMessage({ code: '22003' })).toBe('a number is out of range');
    expect(sqlState({ code: 'P2002' })).toBeNull();
    expect(badValueMessage(new Error('x'))).toBeNull();
  });
});

describe('isForeignKeyViolation', () => {
  it.each([
    ['Prisma P2003', { code: 'P2003' }],
    [
      'raw query',
      { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '23503' } } } },
    ],
    ['pg', { code: '23503' }],
  ])('recognises %s', (_, error) => {
    expect(isForeignKeyViolation(error)).toBe(true);
  });

  it.each([
    ['unique violation', { code: 'P2002' }],
    ['check violation', { code: '23514' }],
    ['nothing', null],
  ])('does not take %s for one', (_, error) => {
    expect(isForeignKeyViolation(error)).toBe(false);
  });
});

describe('sqlState', () => {
  it.each([
    ['pg', { code: '57014', message: 'canceling statement due to statement timeout' }, '57014'],
    [
      'the driver adapter, with the server message',
      {
        name: 'DriverAdapterError',
        cause: { originalCode: '22003', originalMessage: 'out of range', kind: 'postgres' },
      },
      '22003',
    ],
    ['a raw Prisma query', { code: 'P2010', meta: { code: '23505', message: 'duplicate key' } }, '23505'],
    ['only a message', new Error('canceling statement due to statement timeout'), '57014'],
  ])('reads the SQLSTATE and message of %s', (_, error, code) => {
    expect(sqlState(error)).toEqual({ code, message: expect.any(String) });
  });

  it('keeps the message of the layer that named the SQLSTATE', () => {
    const e = { cause: { originalCode: '22003', originalMessage: 'integer out of range', message: 'x' } };
    expect(sqlState(e)).toEqual({ code: '22003', message: 'integer out of range' });
    expect(sqlState({ code: 'P2002', meta: { target: ['name'] } })).toBeNull();
  });
});

describe('isUniqueViolation', () => {
  it.each([
    ['Prisma P2002', { code: 'P2002' }, true],
    ['raw query', { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '23505' } } } }, true],
    ['pg', { code: '23505' }, true],
    ['foreign key', { code: '23503' }, false],
    ['nothing', null, false],
  ])('%s: %s', (_, error, expected) => {
    expect(isUniqueViolation(error)).toBe(expected);
  });
});
