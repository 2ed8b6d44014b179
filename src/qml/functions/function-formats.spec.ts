import { dateFormat, dayOfWeek, FormatError, numberFormat, truncUnit } from './function-formats.js';

const error = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof FormatError) return e.message;
    throw e;
  }
  throw new Error('accepted');
};

describe('Oracle formats spelled for PostgreSQL', () => {
  it.each([
    ['YYYY-MM-DD HH24:MI:SS', 'YYYY-MM-DD HH24:MI:SS'],
    ['dd-mon-yyyy hh:mi am', 'DD-mon-YYYY HH12:MI am'],
    ['DD-MON-RR', 'DD-MON-YY'],
    ['RRRR/MM/DD', 'YYYY/MM/DD'],
    ['Day, DDth Month', 'Day, DDth Month'],
    // Oracle's FM holds until the next FM; PostgreSQL's for one element.
    ['FMDay, DD Month YYYY', 'FMDay, FMDD FMMonth FMYYYY'],
    ['FMDD FMMM', 'FMDD MM'],
    ['FXDD.MM.YYYY', 'FXDD.MM.YYYY'],
    ['SSSSS', 'SSSS'],
    ['HH24:MI:SS.FF', 'HH24:MI:SS.US'],
    ['HH24:MI:SS.FF3', 'HH24:MI:SS.FF3'],
    ['"Week "IW", "IYYY', '"Week "IW", "IYYY'],
    ['Q;DDD;J;W;WW;D;DY;RM;Y,YYY', 'Q;DDD;J;W;WW;D;DY;RM;Y,YYY'],
    ['A.M. B.C. p.m.', 'A.M. B.C. p.m.'],
  ])('date format %s → %s', (oracle, pg) => {
    expect(dateFormat(oracle)).toBe(pg);
  });

  it.each([
    ['YYYY-MM-XX', 'unknown element at "XX" (position 9)'],
    ['TZH:TZM', 'unknown element at "TZH:TZM" (position 1)'],
    ['YYYY%', 'unknown element at "%" (position 5)'],
    ['"open', 'the quoted text at position 1 is not closed'],
    ['"a\\b" YYYY', 'quoted text cannot hold a backslash'],
    ['DD FX', 'FX must come first'],
    ['FM', 'the format has no date or time element'],
    ['  ', 'the format is empty'],
    ['YYYY'.repeat(17), 'the format is longer than 64 characters'],
    ['HH24:MI:SS.FF9', 'unknown element at "9" (position 14)'],
  ])('rejects the date format %s', (format, message) => {
    expect(error(() => dateFormat(format))).toBe(message);
  });

  it('takes number formats as PostgreSQL writes them, in upper case', () => {
    expect(numberFormat('fm9,990.00')).toBe('FM9,990.00');
    expect(numberFormat('S0.000EEEE')).toBe('S0.000EEEE');
    expect(numberFormat('$999D99PR')).toBe('$999D99PR');
    expect(error(() => numberFormat('99X9'))).toBe('unknown element at "X9" (position 3)');
    expect(error(() => numberFormat('FM'))).toBe('a number format needs a digit (9 or 0)');
  });

  it('names date_trunc fields after TRUNC units', () => {
    expect(['yyyy', 'Year', 'Q', 'MONTH', 'mm', 'IW', 'DD', 'ddd', 'J', 'HH24', 'mi'].map(truncUnit)).toEqual([
      'year',
      'year',
      'quarter',
      'month',
      'month',
      'week',
      'day',
      'day',
      'day',
      'hour',
      'minute',
    ]);
    expect(truncUnit(' CC ')).toBe('century');
    expect(error(() => truncUnit('DY'))).toMatch(/^"DY" is not a unit TRUNC supports/);
  });

  it('numbers days of the week from Sunday, by full name or three letters', () => {
    expect(['SUNDAY', 'mon', 'Tuesday', 'WED', 'thu', 'Fri', 'SATURDAY'].map(dayOfWeek)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(error(() => dayOfWeek('Mo'))).toBe('"Mo" is not a day of the week (MONDAY … SUNDAY, or MON … SUN)');
  });
});
