import { ConflictException, ForbiddenException } from '@nestjs/common';
import type { AuthUser } from '../../src/auth/auth-user.js';
import { AuthModule } from '../../src/auth/auth.module.js';
import { ObjectChangesService } from '../../src/objects/versioned/object-changes.service.js';
import { ObjectsModule } from '../../src/objects/objects.module.js';
import { UsageLinksService } from '../../src/objects/structure/usage-links.service.js';
import { useServices } from './medium-database.js';

const PART = 'wt.part.WTPart';
const ORDER = 'wt.change2.WTChangeOrder2';
const CONTAINER = 'Drive Unit';

describe('ObjectChangesService deleting an object other objects still name', () => {
  const s = useServices({ imports: [AuthModule, ObjectsModule] }, { AUTH_NOTICES: 'false' });
  let changes: ObjectChangesService;
  let links: UsageLinksService;
  let alice: AuthUser;
  let bob: AuthUser;

  const user = async (name: string): Promise<AuthUser> => {
    const { rows } = await s.pool.query<{ id: number }>('SELECT id FROM users WHERE name = $1', [name]);
    return { id: rows[0].id, name, admin: false, fullName: null, email: null };
  };
  const create = (type: string, number: string, more: Record<string, unknown> = {}) =>
    changes.create(alice, { type, container: CONTAINER, number, name: number, ...more });
  const byNumber = (number: string) => ({ kind: 'number' as const, text: number, cls: PART, number });
  const rows = async (number: string) => {
    const { rows } = await s.pool.query<{ masters: number; iterations: number; usedBy: number; uses: number }>(
      `SELECT (SELECT count(*)::int FROM masters WHERE number = $1) AS masters,
              (SELECT count(*)::int FROM iterations i JOIN masters m ON m.id = i.master_id
                WHERE m.number = $1) AS iterations,
              (SELECT count(*)::int FROM usage_links l JOIN masters m ON m.id = l.child_id
                WHERE m.number = $1) AS "usedBy",
              (SELECT count(*)::int FROM usage_links l JOIN iterations i ON i.id = l.parent_id
                JOIN masters m ON m.id = i.master_id WHERE m.number = $1) AS uses`,
      [number],
    );
    return rows[0];
  };
  const deletions = async (number: string) =>
    (
      await s.pool.query<{ user_name: string; detail: unknown }>(
        `SELECT user_name, detail FROM audit_events WHERE action = 'objects.delete' AND object_number = $1`,
        [number],
      )
    ).rows;

  beforeAll(async () => {
    changes = s.get(ObjectChangesService);
    links = s.get(UsageLinksService);
    alice = await user('alice');
    bob = await user('bob');
  });

  it('refuses to delete a part an assembly uses; force removes the usage link and keeps the assembly', async () => {
    await create(PART, 'MD-ASM');
    await create(PART, 'MD-BOLT');
    const use = await links.add(alice, byNumber('MD-ASM'), { member: 'MD-BOLT', quantity: 4 });
    expect(use).toMatchObject({ member: { number: 'MD-BOLT' }, quantity: 4, unit: 'ea' });
    expect(await rows('MD-BOLT')).toEqual({ masters: 1, iterations: 1, usedBy: 1, uses: 0 });

    await expect(changes.removeAny(alice, 'MD-BOLT', PART, false)).rejects.toThrow(
      new ConflictException(
        'MD-BOLT is used by MD-ASM A.1: remove those usage links first, or delete with force=true, which removes them too',
      ),
    );
    await expect(changes.removeAny(bob, 'MD-BOLT', PART, true)).rejects.toThrow(ForbiddenException);
    expect(await rows('MD-BOLT')).toEqual({ masters: 1, iterations: 1, usedBy: 1, uses: 0 });
    expect(await deletions('MD-BOLT')).toEqual([]);

    const gone = await changes.removeAny(alice, 'MD-BOLT', PART, true);
    expect(gone).toMatchObject({ number: 'MD-BOLT', class: PART, iterations: 1, usedBy: 1, links: 0, references: 0 });
    expect(await rows('MD-BOLT')).toEqual({ masters: 0, iterations: 0, usedBy: 0, uses: 0 });
    expect(await rows('MD-ASM')).toEqual({ masters: 1, iterations: 1, usedBy: 0, uses: 0 });
    expect(await deletions('MD-BOLT')).toEqual([
      {
        user_name: 'alice',
        detail: {
          latest: 'A.1',
          state: 'INWORK',
          force: true,
          iterations: 1,
          files: 0,
          usedBy: 1,
          links: 0,
          references: 0,
        },
      },
    ]);
  });

  it('refuses to delete a change order a work item refers to; force clears the reference in the work item', async () => {
    const order = await create(ORDER, 'MD-CN');
    const item = await create('wt.workflow.work.WorkItem', 'MD-WI', {
      references: { primaryBusinessObject: order.oid },
    });
    expect(item).toMatchObject({ references: { primaryBusinessObject: order.oid } });

    await expect(changes.removeAny(alice, 'MD-CN', ORDER, false)).rejects.toThrow(
      new ConflictException(
        'MD-CN is referred to by 1 object (MD-WI): remove those references first, or delete with force=true, ' +
          'which removes them too',
      ),
    );
    const props = async () =>
      (await s.pool.query<{ props: unknown }>("SELECT props FROM objects WHERE number = 'MD-WI'")).rows[0].props;
    // Kept in the work item's JSON under the catalog's key, as the OID.
    expect(await props()).toEqual({ businessObject: order.oid });

    const gone = await changes.removeAny(alice, 'MD-CN', ORDER, true);
    expect(gone).toMatchObject({ number: 'MD-CN', class: ORDER, references: 1, links: 0 });
    expect(await props()).toEqual({});
  });
});
