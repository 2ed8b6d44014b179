import { badValueMessage, isDatabaseUnavailable, isForeignKeyViolation, sqlStateOf } from './database-errors.js';

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
    expect(sqlStateOf(e)).toBe('22021');
    expect(badValueMessage(e)).toBe('text values must not contain NUL characters or invalid UTF-8');
  });

  it('reads the SQLSTATE of a raw pg error and ignores Prisma codes', () => {
    expect(badValueMessage({ code: '22003' })).toBe('a number is out of range');
    expect(sqlStateOf({ code: 'P2002' })).toBeNull();
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
