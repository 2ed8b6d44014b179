import { perUserReports } from './reports.service.js';

describe('reports one user may run at once', () => {
  it('is REPORT_MAX_CONCURRENT_PER_USER, below the report pool size so others keep a connection', () => {
    expect(perUserReports({ reportMaxConcurrentPerUser: 3, dbPoolMax: 10 })).toBe(3);
    expect(perUserReports({ reportMaxConcurrentPerUser: 3, dbPoolMax: 3 })).toBe(2);
    expect(perUserReports({ reportMaxConcurrentPerUser: 50, dbPoolMax: 10 })).toBe(9);
    expect(perUserReports({ reportMaxConcurrentPerUser: 3, dbPoolMax: 2 })).toBe(1);
  });

  it('is 0, no limit, when the setting is 0', () => {
    expect(perUserReports({ reportMaxConcurrentPerUser: 0, dbPoolMax: 10 })).toBe(0);
  });

  it('is one on a pool of one connection (the embedded database), where reports queue anyway', () => {
    expect(perUserReports({ reportMaxConcurrentPerUser: 3, dbPoolMax: 1 })).toBe(1);
  });
});
