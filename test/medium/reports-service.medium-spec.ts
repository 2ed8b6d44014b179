import { readFileSync } from 'node:fs';
import {
  BadRequestException,
  ForbiddenException,
  NotFoundException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type { AuthUser } from '../../src/auth/auth-user.js';
import { AuthModule } from '../../src/auth/auth.module.js';
import { InputError } from '../../src/common/input-error.js';
import { ReportsModule } from '../../src/reports/reports.module.js';
import { ReportsService } from '../../src/reports/reports.service.js';
import { demoQml } from '../reports/report-fixtures.js';
import { useServices } from './medium-database.js';

const XML = 'text/xml';
const NAME = 'Medium parts by state';
const byNumber = readFileSync(new URL('../../docs/examples/documents-by-number.qml', import.meta.url), 'utf8');

describe('ReportsService on a database of its own', () => {
  const s = useServices({ imports: [AuthModule, ReportsModule] }, { AUTH_NOTICES: 'false' });
  let reports: ReportsService;
  let alice: AuthUser;
  let bob: AuthUser;
  let carol: AuthUser;

  const user = async (name: string): Promise<AuthUser> => {
    const { rows } = await s.pool.query<{ id: number; admin: boolean }>('SELECT id, admin FROM users WHERE name = $1', [
      name,
    ]);
    return { id: rows[0].id, name, admin: rows[0].admin, fullName: null, email: null };
  };
  const stored = async () =>
    (await s.pool.query<{ name: string }>("SELECT name FROM report_templates WHERE name LIKE 'Medium%' ORDER BY name"))
      .rows;

  beforeAll(async () => {
    reports = s.get(ReportsService);
    [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map(user));
  });

  it('runs inline QML over the demo data with the values given, and refuses QML it cannot run', async () => {
    const run = await reports.runInline(alice, byNumber, XML, { number: '0000*' });
    expect(run.result.columns.map((c) => c.heading)).toEqual(['Document', 'Number', 'Name', 'State', 'Last Modified']);
    expect(run.result.rows.map((r) => r.slice(1, 4))).toEqual([
      ['0000000001', 'Drive unit specification', 'INWORK'],
      ['0000000002', 'Test plan', 'UNDERREVIEW'],
      ['0000000003', 'Maintenance manual', 'INWORK'],
      ['0000000004', 'Cover with 100% recycled steel_v2', 'INWORK'],
      ['0000000005', 'Obsolete drawing list', 'OBSOLETE'],
      ['0000000901', 'Standard fastener catalogue', 'RELEASED'],
    ]);
    expect(run.result.truncated).toBe(false);
    expect(run.parameters).toEqual([{ name: 'number', value: '0000*' }]);
    const one = await reports.runInline(alice, byNumber, XML, { number: '0000000002' });
    expect(one.result.rows.map((r) => r[1])).toEqual(['0000000002']);

    const unknown = byNumber.replace('wt.doc.WTDocument', 'wt.doc.Nope');
    // An InputError: answered 400 with its message by the error filter.
    const refused = reports.runInline(alice, unknown, XML, {});
    await expect(refused).rejects.toBeInstanceOf(InputError);
    await expect(refused).rejects.toThrow(/^\/qml\/statement\/query\/from\/table\[1\]: unknown class wt\.doc\.Nope/);
    await expect(reports.runInline(alice, byNumber, 'application/json', {})).rejects.toThrow(
      new UnsupportedMediaTypeException('send the QML document with Content-Type text/xml or application/xml'),
    );
  });

  it('creates a template for a manager of its container, runs it for a reader by name, and lists it', async () => {
    const created = await reports.put(carol, NAME, demoQml('Released parts'), XML, {
      container: 'Standard Parts',
      description: 'Parts by state',
    });
    expect(created.created).toBe(true);
    expect(created.details).toMatchObject({
      oid: expect.stringMatching(/^OR:wt\.query\.template\.ReportTemplate:\d+$/),
      name: NAME,
      description: 'Parts by state',
      container: 'Standard Parts',
      parameters: [{ name: 'state', type: 'wt.lifecycle.State', default: 'RELEASED', isMacro: false }],
    });
    const run = await reports.runByName(bob, NAME, {});
    expect(run.row).toMatchObject({ name: NAME, containerName: 'Standard Parts' });
    expect(run.result.rows).toHaveLength(3);
    expect(run.parameters).toEqual([{ name: 'state', value: 'RELEASED' }]);
    expect(await reports.list(bob, { name: 'Medium*' })).toEqual([{ oid: created.details.oid, name: NAME }]);
    await expect(reports.list(bob, { limit: '0' })).rejects.toThrow(
      new BadRequestException('limit must be a positive integer, not "0"'),
    );

    const replaced = await reports.put(carol, NAME, demoQml('Files per state'), XML, {});
    expect(replaced.created).toBe(false);
    expect(replaced.details).toMatchObject({
      description: 'Parts by state',
      container: 'Standard Parts',
      parameters: [],
    });
    const again = await reports.runByName(bob, NAME, {});
    expect(again.result.columns.map((c) => c.heading)).toEqual(['State', 'Files', 'Bytes']);
  });

  it('refuses readers, templates that do not compile and missing containers, storing nothing', async () => {
    const before = await stored();
    await expect(
      reports.put(bob, 'Medium by bob', demoQml('Released parts'), XML, { container: 'Standard Parts' }),
    ).rejects.toThrow(
      new ForbiddenException(
        'only managers of container "Standard Parts" and administrators may change its report templates',
      ),
    );
    const bad = demoQml('Released parts').replace('wt.part.WTPart</table>', 'wt.part.Nope</table>');
    await expect(reports.put(carol, 'Medium bad', bad, XML, { container: 'Standard Parts' })).rejects.toThrow(
      /^\/qml\/statement\/query\/from\/table\[1\]: unknown class wt.part.Nope/,
    );
    await expect(reports.put(carol, 'Medium none', demoQml('Released parts'), XML, {})).rejects.toThrow(
      new BadRequestException('parameter "container" (a container name) is required to create a report template'),
    );
    await expect(
      reports.put(carol, 'Medium nowhere', demoQml('Released parts'), XML, { container: 'Nowhere' }),
    ).rejects.toThrow(new NotFoundException('no container named "Nowhere"'));
    expect(await stored()).toEqual(before);
  });

  it('removes a template for a manager only; then it is not found', async () => {
    await reports.put(carol, 'Medium to remove', demoQml('Released parts'), XML, { container: 'Standard Parts' });
    await expect(reports.remove(alice, 'Medium to remove')).rejects.toThrow(ForbiddenException);
    await reports.remove(carol, 'Medium to remove');
    await expect(reports.runByName(bob, 'Medium to remove', {})).rejects.toThrow(
      new NotFoundException('no report template named "Medium to remove"'),
    );
    expect(await stored()).toEqual([{ name: NAME }]);
  });
});
