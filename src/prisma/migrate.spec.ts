import { migrationState, type MigrationRow } from './migrate.js';

const NAMES = ['1_init', '2_more', '3_last'];
const row = (name: string, finished: boolean, rolledBack = false, logs: string | null = null): MigrationRow => ({
  name,
  finished,
  rolledBack,
  logs,
});

// applyMigrations itself, with the real CLI and a failing migration: test/startup/migrate.e2e-spec.ts.
describe('migrationState: what _prisma_migrations says', () => {
  it('everything pending when the table is missing or empty', () => {
    expect(migrationState(NAMES, [])).toEqual({ applied: [], failed: [], pending: NAMES });
  });

  it('applied: a finished row not rolled back', () => {
    expect(migrationState(NAMES, [row('1_init', true), row('2_more', true), row('3_last', true)])).toEqual({
      applied: NAMES,
      failed: [],
      pending: [],
    });
  });

  it('failed: a row neither finished nor rolled back, with logs; it and those after it are pending', () => {
    expect(migrationState(NAMES, [row('1_init', true), row('2_more', false, false, 'division by zero')])).toEqual({
      applied: ['1_init'],
      failed: ['2_more'],
      pending: ['2_more', '3_last'],
    });
  });

  it('a failed row marked rolled back no longer fails, and one applied again after it is applied', () => {
    const rows = [row('1_init', true), row('2_more', false, true, 'division by zero')];
    expect(migrationState(NAMES, rows)).toEqual({ applied: ['1_init'], failed: [], pending: ['2_more', '3_last'] });
    rows.push(row('2_more', true), row('3_last', true));
    expect(migrationState(NAMES, rows)).toEqual({ applied: NAMES, failed: [], pending: [] });
  });

  it('a row under way (no logs yet) is pending, not failed; a rolled-back finished one is pending', () => {
    expect(migrationState(NAMES, [row('1_init', true, true), row('2_more', false)])).toEqual({
      applied: [],
      failed: [],
      pending: NAMES,
    });
  });

  it('a failed row of a migration this build does not have fails too', () => {
    expect(
      migrationState(NAMES, [...NAMES.map((n) => row(n, true)), row('4_elsewhere', false, false, 'oops')]),
    ).toEqual({ applied: NAMES, failed: ['4_elsewhere'], pending: [] });
  });
});
