import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ForbiddenException, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../../src/auth/auth-user.js';
import { AuthModule } from '../../src/auth/auth.module.js';
import { FilesModule } from '../../src/files/files.module.js';
import { parseHolderRef, type WriteOptions } from '../../src/files/files.params.js';
import { FilesService, type FileTarget, type StoredFile } from '../../src/files/files.service.js';
import { useServices } from './medium-database.js';

const DOC = 'wt.doc.WTDocument';
const ref = parseHolderRef('0000000001', DOC);
const link = { base: 'http://pdm.test', query: '' };
const target = (fileName: string): FileTarget => ({ ref, fileName, link });
const keep: WriteOptions = { role: null, iterate: false, message: null, mimetype: null };
const base64 = (text: string) => ({ kind: 'base64' as const, data: Buffer.from(text).toString('base64') });
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('FilesService on a database of its own', () => {
  const s = useServices(
    { imports: [AuthModule, FilesModule] },
    // No caches: every read comes from the store. No periodic sweep.
    { AUTH_NOTICES: 'false', FILES_SWEEP_INTERVAL_MS: '0', FILES_CACHE_SIZE: '0', FILES_DISK_CACHE_SIZE: '0' },
  );
  let files: FilesService;
  let alice: AuthUser;
  let bob: AuthUser;
  let carol: AuthUser;

  const user = async (name: string): Promise<AuthUser> => {
    const { rows } = await s.pool.query<{ id: number }>('SELECT id FROM users WHERE name = $1', [name]);
    return { id: rows[0].id, name, admin: false, fullName: null, email: null };
  };
  const bytesOf = async (file: StoredFile): Promise<string> => {
    const read = await files.read(file);
    if (!(read instanceof Readable)) throw new Error('expected a stream from the store, not a cached file');
    const parts: Buffer[] = [];
    for await (const part of read) parts.push(part as Buffer);
    return Buffer.concat(parts).toString('utf8');
  };
  const names = async (who: AuthUser) => (await files.list(who, ref, 'all', link)).items.map((i) => i.filename).sort();

  beforeAll(async () => {
    files = s.get(FilesService);
    [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map(user));
  });

  it("lists and reads an object's files for a reader, and hides the object from others", async () => {
    expect(await names(bob)).toEqual(['notes.md', 'spec.txt']);
    const spec = await files.find(bob, ref, 'spec.txt');
    expect(spec).toMatchObject({ fileName: 'spec.txt', mimeType: 'text/plain' });
    const text = await bytesOf(spec);
    expect(Buffer.byteLength(text)).toBe(spec.size);
    expect(sha(text)).toBe(spec.sha256);
    await expect(files.find(bob, ref, 'nothing.txt')).rejects.toThrow(
      /^no file 'nothing\.txt' in wt\.doc\.WTDocument 0000000001 /,
    );
    await expect(files.list(carol, ref, 'all', link)).rejects.toThrow(
      new NotFoundException(`no ${DOC} with number 0000000001`),
    );
  });

  it('saves a new file and a new content for it, recording each change', async () => {
    const first = await files.save(alice, target('medium.txt'), keep, base64('first content'), {}, {});
    expect(first).toMatchObject({ created: true, sha256: sha('first content') });
    expect(await bytesOf(await files.find(bob, ref, 'medium.txt'))).toBe('first content');
    const second = await files.save(alice, target('medium.txt'), keep, base64('second content'), {}, {});
    expect(second).toMatchObject({ created: false, sha256: sha('second content') });
    expect(await files.find(bob, ref, 'medium.txt')).toMatchObject({ size: 14, mimeType: 'text/plain' });
    expect(await bytesOf(await files.find(bob, ref, 'medium.txt'))).toBe('second content');
    expect(await names(alice)).toEqual(['medium.txt', 'notes.md', 'spec.txt']);
    const { rows } = await s.pool.query<{ user_name: string; action: string; sha256: string }>(
      `SELECT user_name, action, detail->'after'->>'sha256' AS sha256 FROM audit_events
       WHERE object_number = '0000000001' AND detail->>'fileName' = 'medium.txt' ORDER BY id`,
    );
    expect(rows).toEqual([
      { user_name: 'alice', action: 'files.upload', sha256: sha('first content') },
      { user_name: 'alice', action: 'files.replace', sha256: sha('second content') },
    ]);
  });

  it('refuses changes by a reader and deletes a file for an author, after which it is not found', async () => {
    await expect(files.save(bob, target('by-bob.txt'), keep, base64('bob'), {}, {})).rejects.toThrow(
      new ForbiddenException(
        "changing files needs author or manager rights in container 'Drive Unit'; you may only read there",
      ),
    );
    await expect(files.remove(bob, target('notes.md'), false, {})).rejects.toThrow(ForbiddenException);
    await files.save(alice, target('to-delete.txt'), keep, base64('short-lived'), {}, {});
    expect(await files.remove(alice, target('to-delete.txt'), false, {})).toMatchObject({
      created: false,
      sha256: null,
    });
    await expect(files.find(bob, ref, 'to-delete.txt')).rejects.toThrow(NotFoundException);
    await expect(files.remove(alice, target('to-delete.txt'), false, {})).rejects.toThrow(NotFoundException);
    expect(await names(bob)).not.toContain('by-bob.txt');
  });
});
