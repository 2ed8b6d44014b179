import { ReportAdmission, reservedReportConnections } from './report-admission.js';

/** The status of what admit() threw, or 'admitted' (ended again at once when `end`). */
function attempt(admission: ReportAdmission, userId: number, ends: (() => void)[]): number | 'admitted' {
  try {
    ends.push(admission.admit(userId));
    return 'admitted';
  } catch (e) {
    return (e as { getStatus(): number }).getStatus();
  }
}

describe('reports let onto an instance’s report pool', () => {
  it('lets every first report through, and further ones only while the reserved connections stay free', () => {
    const admission = new ReportAdmission(10, 2);
    const ends: (() => void)[] = [];
    // Four users' first and second reports: 8 of 10 connections.
    for (const round of [1, 2])
      for (const u of [1, 2, 3, 4]) expect([round, attempt(admission, u, ends)]).toEqual([round, 'admitted']);
    for (const u of [1, 2, 3, 4]) expect(attempt(admission, u, ends)).toBe(429);
    // Users running none take the two kept, and more wait for the pool rather than being refused.
    for (const u of [5, 6, 7]) expect(attempt(admission, u, ends)).toBe('admitted');
    // One report of user 1 ended (ending twice counts once): still past the share, the pool is full.
    ends[0]();
    ends[0]();
    expect(attempt(admission, 1, ends)).toBe(429);
    // The newcomers' reports ended: user 1 gets one place more, up to the reserve again.
    for (const i of [8, 9, 10]) ends[i]();
    expect(attempt(admission, 1, ends)).toBe('admitted');
    expect(attempt(admission, 2, ends)).toBe(429);
    expect(attempt(admission, 8, ends)).toBe('admitted');
  });

  it('lets a lone user run as many as the per-user limit allows', () => {
    const admission = new ReportAdmission(10, 2);
    const ends: (() => void)[] = [];
    for (let i = 0; i < 8; i++) expect(attempt(admission, 1, ends)).toBe('admitted');
    expect(attempt(admission, 1, ends)).toBe(429);
    for (const end of ends) end();
    expect(attempt(admission, 1, ends)).toBe('admitted');
  });

  it('answers 429 with Retry-After and names the setting', () => {
    const admission = new ReportAdmission(2, 1);
    admission.admit(1);
    let error: unknown;
    try {
      admission.admit(1);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      headers: { 'Retry-After': '1' },
      message:
        'the report pool of this instance is busy: you already run 1 report(s) here, and its last 1 connection ' +
        'are kept for users running none (REPORT_POOL_RESERVED); retry when one has finished',
    });
  });

  it('keeps a quarter of the pool by default, REPORT_POOL_RESERVED when set, never the whole pool', () => {
    const keep = (dbPoolMax: number, reportPoolReserved: number | null, reportMaxConcurrentPerUser = 3) =>
      reservedReportConnections({ dbPoolMax, reportPoolReserved, reportMaxConcurrentPerUser });
    expect([keep(10, null), keep(40, null), keep(3, null), keep(2, null)]).toEqual([2, 10, 1, 1]);
    expect([keep(10, 5), keep(10, 0), keep(10, 50)]).toEqual([5, 0, 9]);
    // The embedded database's pool of one, and no per-user limit: nothing kept.
    expect([keep(1, null), keep(10, null, 0), keep(10, 4, 0)]).toEqual([0, 0, 0]);
  });
});
