import { ConflictException, ForbiddenException, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../../src/auth/auth-user.js';
import { NumbersRepository } from '../../src/numbers/numbers.repository.js';
import { NumbersService } from '../../src/numbers/numbers.service.js';
import { ReservationBatcher } from '../../src/numbers/reservation-batcher.js';
import { addMasters, counterOf, createContainer, type TestContainer } from '../numbers/numbers-fixtures.js';
import { useServices } from './medium-database.js';

const DOC = 'wt.doc.WTDocument';
const PART = 'wt.part.WTPart';

describe('NumbersService on a database of its own', () => {
  const s = useServices({ providers: [NumbersService, NumbersRepository, ReservationBatcher] });
  let numbers: NumbersService;
  let alice: AuthUser;
  let bob: AuthUser;
  let box: TestContainer;

  const user = async (name: string): Promise<AuthUser> => {
    const { rows } = await s.pool.query<{ id: number }>('SELECT id FROM users WHERE name = $1', [name]);
    return { id: rows[0].id, name, admin: false, fullName: null, email: null };
  };
  const generate = (who: AuthUser, cls: string, count: number, container = box.name) =>
    numbers.generate(who, cls, { 'container-name': container, count: String(count) });

  beforeAll(async () => {
    numbers = s.get(NumbersService);
    alice = await user('alice');
    bob = await user('bob');
    box = await createContainer(s.pool, {
      name: 'Medium Numbers',
      members: { alice: 'author', bob: 'reader' },
      rules: [
        { cls: DOC, prefix: 'D-', width: 6, next: 100 },
        { cls: PART, width: 2, next: 96 },
      ],
    });
  });

  it('hands out consecutive runs, moves the counter past them and records who got which', async () => {
    const first = await generate(alice, DOC, 3);
    expect(first).toMatchObject({
      count: 3,
      class_name: DOC,
      container: { oid: box.oid, name: box.name },
      items: ['D-000100', 'D-000101', 'D-000102'],
    });
    expect((await generate(alice, DOC, 2)).items).toEqual(['D-000103', 'D-000104']);
    expect(await counterOf(s.pool, box.id, DOC)).toBe('105');
    const { rows } = await s.pool.query<{ user_name: string; detail: unknown }>(
      `SELECT user_name, detail FROM audit_events
       WHERE action = 'numbers.generate' AND container_id = $1 ORDER BY id`,
      [box.id],
    );
    expect(rows).toEqual([
      { user_name: 'alice', detail: { class_name: DOC, count: 3, first: 'D-000100', last: 'D-000102' } },
      { user_name: 'alice', detail: { class_name: DOC, count: 2, first: 'D-000103', last: 'D-000104' } },
    ]);
  });

  it('skips numbers objects already carry, starting at the first gap the run fits in', async () => {
    await addMasters(s.pool, box.id, DOC, ['D-000105', 'D-000106', 'D-000108']);
    expect((await generate(alice, DOC, 1)).items).toEqual(['D-000107']);
    expect((await generate(alice, DOC, 2)).items).toEqual(['D-000109', 'D-000110']);
    expect(await counterOf(s.pool, box.id, DOC)).toBe('111');
  });

  it('reserves nothing when the run does not fit the width, and the rest of the rule stays usable', async () => {
    const refused = generate(alice, PART, 5);
    await expect(refused).rejects.toThrow(ConflictException);
    await expect(refused).rejects.toThrow(
      `numbering rule exhausted: the ${PART} rule of container 'Medium Numbers' has fewer than 5 consecutive ` +
        'free numbers left up to 99 (width 2); nothing was reserved',
    );
    expect(await counterOf(s.pool, box.id, PART)).toBe('96');
    expect((await generate(alice, PART, 4)).items).toEqual(['96', '97', '98', '99']);
    await expect(generate(alice, PART, 1)).rejects.toThrow(
      `the ${PART} rule of container 'Medium Numbers' has no free number left up to 99 (width 2)`,
    );
    expect(await counterOf(s.pool, box.id, PART)).toBe('100');
  });

  it('lets readers list the rules but not generate, and hides containers the caller cannot read', async () => {
    await expect(generate(bob, DOC, 1)).rejects.toThrow(
      new ForbiddenException("generating numbers needs author or manager rights in container 'Medium Numbers'"),
    );
    const rules = await numbers.rules(bob, { 'container-name': box.name });
    expect(rules.items).toEqual([
      { class_name: DOC, prefix: 'D-', suffix: '', width: 6, next: 111, next_number: 'D-000111' },
      { class_name: PART, prefix: '', suffix: '', width: 2, next: 100, next_number: '100' },
    ]);
    const carol = await user('carol');
    await expect(numbers.rules(carol, { 'container-name': box.name })).rejects.toThrow(
      new NotFoundException("no container named 'Medium Numbers'"),
    );
    await expect(generate(alice, 'wt.epm.EPMDocument', 1)).rejects.toThrow(
      new NotFoundException("container 'Medium Numbers' has no numbering rule for wt.epm.EPMDocument"),
    );
    expect(await counterOf(s.pool, box.id, DOC)).toBe('111');
  });
});
