import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { importText } from '../../src/import/import-file.js';
import { USERS } from '../helpers/test-app.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { binaryParser, oidOf } from './files-fixtures.js';
import { removeZipFixture, unzip } from './zip-fixtures.js';

const P = `FZDL${process.pid}`;
/** Types of this file's own: removed again at its end. */
const PKG = `com.fzdl${process.pid}`;
const APPROVAL = `${PKG}.ApprovalLink`;
const SIGNED = `${PKG}.SignedApprovalLink`;
const TOOL_RULE = `${PKG}.ToolDrawingRule`;
/** A link class with the describe link's roles, but not below it: never followed. */
const UNRELATED = `${PKG}.CommentLink`;

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A collection follows the link classes a dataset declares below the describe link and the
 * build rule (a class below a declared one too) as it follows those classes' own links.
 */
describe('files: collections follow declared subclasses of the followed link classes', () => {
  let db: pg.Pool;
  const container = `${P} Zip`;
  beforeAll(async () => {
    db = testPool();
    await removeZipFixture(db, P);
    const doc = (number: string, filename: string, text: string) => ({
      class: 'wt.doc.WTDocument',
      number,
      name: `document ${number}`,
      container,
      files: [{ role: 'PRIMARY', filename, text }],
    });
    const dataset = {
      format: 'pdm-dataset/1',
      types: {
        classes: [
          { name: APPROVAL, parent: 'wt.part.WTPartDescribeLink' },
          { name: SIGNED, parent: APPROVAL },
          { name: TOOL_RULE, parent: 'wt.epm.build.EPMBuildRule' },
          {
            name: UNRELATED,
            parent: 'wt.fc.ObjectToObjectLink',
            roles: { a: 'wt.part.WTPart', b: 'wt.doc.WTDocument' },
          },
        ],
      },
      containers: [
        { name: container, class: 'wt.pdmlink.PDMLinkProduct', members: { alice: 'author', bob: 'reader' } },
      ],
      objects: [
        {
          class: 'wt.part.WTPart',
          number: `${P}-PART`,
          name: 'bracket',
          container,
          files: [{ role: 'PRIMARY', filename: 'bracket.txt', text: 'bracket\n' }],
        },
        doc(`${P}-APPROVAL`, 'approval.txt', 'approved\n'),
        doc(`${P}-SIGNED`, 'signed.txt', 'signed\n'),
        doc(`${P}-COMMENT`, 'comment.txt', 'a comment\n'),
        {
          class: 'wt.epm.EPMDocument',
          subtype: 'CADDRAWING',
          number: `${P}-TOOL`,
          name: 'tool drawing',
          container,
          files: [{ role: 'PRIMARY', filename: 'tool.drw', text: 'tool drawing\n' }],
        },
      ],
      links: [
        { class: APPROVAL, a: `${P}-PART`, b: `${P}-APPROVAL`, container },
        { class: SIGNED, a: `${P}-PART`, b: `${P}-SIGNED`, container },
        { class: UNRELATED, a: `${P}-PART`, b: `${P}-COMMENT`, container },
        { class: TOOL_RULE, a: `${P}-TOOL`, b: `${P}-PART`, container },
      ],
    };
    // Before the application starts, so its catalog holds the declared classes.
    await importText(JSON.stringify(dataset), 'declared-links', testDatabaseUrl());
  });
  const t = useTestApp({ FILES_DISK_CACHE_SIZE: '0' });
  afterAll(async () => {
    await removeZipFixture(db, P);
    await db.query('DELETE FROM catalog_types WHERE name LIKE $1', [`${PKG}.%`]);
    await db.end();
  });

  const collect = (body: object) =>
    request(t.http)
      .post('/files/collect')
      .auth(...USERS.bob)
      .send(body)
      .buffer(true)
      .parse(binaryParser);

  it('collects the documents and drawings their links name, with manifest rows saying how they were reached', async () => {
    const res = await collect({ root: `${P}-PART`, type: 'wt.part.WTPart', follow: ['documents', 'drawings'] });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const entries = await unzip(res.body as Buffer);
    expect([...entries.keys()]).toEqual([
      'manifest.json',
      `${P}-PART A.1/bracket.txt`,
      `${P}-APPROVAL A.1/approval.txt`,
      `${P}-SIGNED A.1/signed.txt`,
      `${P}-TOOL A.1/tool.drw`,
    ]);
    expect(entries.get(`${P}-APPROVAL A.1/approval.txt`)!.toString()).toBe('approved\n');
    expect(entries.get(`${P}-SIGNED A.1/signed.txt`)!.toString()).toBe('signed\n');
    const part = await oidOf(db, 'wt.part.WTPart', `${P}-PART`);
    const approval = await oidOf(db, 'wt.doc.WTDocument', `${P}-APPROVAL`);
    const signed = await oidOf(db, 'wt.doc.WTDocument', `${P}-SIGNED`);
    const tool = await oidOf(db, 'wt.epm.EPMDocument', `${P}-TOOL`);
    const file = (path: string, name: string, bytes: string, mimetype = 'text/plain') => ({
      path,
      file: name,
      role: 'PRIMARY',
      mimetype,
      size: Buffer.byteLength(bytes),
      sha256: sha(Buffer.from(bytes)),
    });
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    expect(manifest).toEqual({
      root: part,
      follow: ['documents', 'drawings'],
      levels: 1,
      role: 'all',
      objects: [
        {
          status: 'included',
          object: part,
          class: 'wt.part.WTPart',
          number: `${P}-PART`,
          version: 'A.1',
          folder: `${P}-PART A.1`,
          via: null,
          parent: null,
          files: [file(`${P}-PART A.1/bracket.txt`, 'bracket.txt', 'bracket\n')],
        },
        {
          status: 'included',
          object: approval,
          class: 'wt.doc.WTDocument',
          number: `${P}-APPROVAL`,
          version: 'A.1',
          folder: `${P}-APPROVAL A.1`,
          via: 'documents',
          parent: part,
          files: [file(`${P}-APPROVAL A.1/approval.txt`, 'approval.txt', 'approved\n')],
        },
        {
          status: 'included',
          object: signed,
          class: 'wt.doc.WTDocument',
          number: `${P}-SIGNED`,
          version: 'A.1',
          folder: `${P}-SIGNED A.1`,
          via: 'documents',
          parent: part,
          files: [file(`${P}-SIGNED A.1/signed.txt`, 'signed.txt', 'signed\n')],
        },
        {
          status: 'included',
          object: tool,
          class: 'wt.epm.EPMDocument',
          number: `${P}-TOOL`,
          version: 'A.1',
          folder: `${P}-TOOL A.1`,
          via: 'drawings',
          parent: part,
          files: [file(`${P}-TOOL A.1/tool.drw`, 'tool.drw', 'tool drawing\n', 'application/octet-stream')],
        },
      ],
    });
    // The link class that is not below a followed one brings nothing.
    expect(JSON.stringify(manifest)).not.toContain(`${P}-COMMENT`);
  });

  it('follows them only for the relation they belong to', async () => {
    const res = await collect({ root: `${P}-PART`, type: 'wt.part.WTPart', follow: ['drawings'] });
    expect(res.status).toBe(200);
    const entries = await unzip(res.body as Buffer);
    expect([...entries.keys()]).toEqual(['manifest.json', `${P}-PART A.1/bracket.txt`, `${P}-TOOL A.1/tool.drw`]);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    expect(manifest.objects.map((o: { number: string; via: string | null }) => [o.number, o.via])).toEqual([
      [`${P}-PART`, null],
      [`${P}-TOOL`, 'drawings'],
    ]);
  });
});
