/**
 * Generates the business objects as COPY text rows: masters, their 1–3 iterations, files
 * (content items over deduplicated blobs) and usage links. Ids are assigned here, in order,
 * so rows can reference each other without asking the database.
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { bytea, RowBuffer, text, timestamp } from './copy-text.js';
import { CAD, CLASSES, DOC, LIBRARY, PART, formatNumber, type BusinessClass, type Container, type Org } from './org.js';
import type { Prng } from './prng.js';
import {
  CAD_APPS, DEPARTMENTS, DOC_KINDS, FILE_LINES, LANGUAGES, MATERIALS, QUALIFIERS, SIZES, STANDARD_PARTS, SUBJECTS, UNITS,
} from './vocab.js';

export type BulkTable = 'masters' | 'iterations' | 'content_blobs' | 'blob_chunks' | 'content_items' | 'usage_links';

/** One batch of rows: a COPY text block per table, and the bytes of file contents in it. */
export type Batch = Record<BulkTable, RowBuffer> & { fileBytes: number };

export const COLUMNS: Record<BulkTable, string> = {
  masters: 'id, class, subtype, number, name, container_id',
  iterations:
    'id, master_id, version, iteration, latest, state, title, description, attributes, created_by, modified_by, created_at, modified_at',
  content_blobs: 'sha256, size, created_at',
  blob_chunks: 'sha256, seq, data',
  content_items: 'id, iteration_id, role, file_name, mime_type, size, sha256, message, created_at, modified_at',
  usage_links: 'id, class, parent_id, child_id, quantity, unit, line_number',
};

const PART_LINK = 'wt.part.WTPartUsageLink';
const MEMBER_LINK = 'wt.epm.structure.EPMMemberLink';
const START_MS = Date.UTC(2019, 0, 1);
const SPAN_MS = Date.UTC(2026, 9, 1) - START_MS;
const HOUR = 3_600_000;
const RECENT = 2000;

/** The last RECENT ids added, to pick structure children from (locality, like real products). */
class Recent {
  private readonly ids = new Int32Array(RECENT);
  private count = 0;
  add(id: number): void {
    this.ids[this.count++ % RECENT] = id;
  }
  get size(): number {
    return Math.min(this.count, RECENT);
  }
  pick(prng: Prng): number {
    return this.ids[Math.floor(prng.next() * this.size)];
  }
  clear(): void {
    this.count = 0;
  }
}

interface File {
  name: string;
  mime: string;
  role: string;
  sha256: string;
  size: number;
}

interface Link {
  child: number;
  quantity: number;
}

const DOC_FORMATS: [string, string][] = [
  ['txt', 'text/plain'], ['md', 'text/markdown'], ['csv', 'text/csv'], ['xml', 'application/xml'],
];

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

export class ObjectSynth {
  private masterId = 0;
  private iterationId = 0;
  private itemId = 0;
  private linkId = 0;
  private containerIndex = 0;
  private left: Record<BusinessClass, number>;
  private seq: Record<BusinessClass, number> = { [DOC]: 0, [CAD]: 0, [PART]: 0 };
  private readonly recentParts = new Recent();
  private readonly recentCad = new Recent();
  private readonly libraryParts: number[] = [];
  private b!: Batch;

  constructor(
    private readonly org: Org,
    private readonly prng: Prng,
    private readonly filesPerObject: number,
  ) {
    this.left = { ...org.containers[0].counts };
  }

  /** Generates the next `count` objects, yielding now and then so COPY data keeps flowing. */
  async generate(count: number): Promise<Batch> {
    const rows = () => new RowBuffer(count * 256);
    this.b = {
      masters: rows(), iterations: rows(), content_blobs: rows(), blob_chunks: rows(), content_items: rows(), usage_links: rows(),
      fileBytes: 0,
    };
    for (let i = 0; i < count; i++) {
      this.object();
      if (i % 2000 === 1999) await yieldToIo();
    }
    return this.b;
  }

  private container(): Container {
    let c = this.org.containers[this.containerIndex];
    while (this.left[DOC] + this.left[CAD] + this.left[PART] === 0) {
      c = this.org.containers[++this.containerIndex];
      if (!c) throw new Error('more objects requested than planned');
      this.left = { ...c.counts };
      this.seq = { [DOC]: 0, [CAD]: 0, [PART]: 0 };
      this.recentParts.clear();
      this.recentCad.clear();
    }
    return c;
  }

  /** A class drawn without replacement, so each container ends with exactly its planned mix. */
  private pickClass(): BusinessClass {
    let r = this.prng.next() * (this.left[DOC] + this.left[CAD] + this.left[PART]);
    for (const cls of CLASSES) {
      r -= this.left[cls];
      if (r < 0 && this.left[cls] > 0) return cls;
    }
    return CLASSES.find((cls) => this.left[cls] > 0)!;
  }

  private object(): void {
    const p = this.prng;
    const c = this.container();
    const cls = this.pickClass();
    this.left[cls]--;
    const seq = ++this.seq[cls];
    const id = ++this.masterId;
    const number = formatNumber(c.numbering[cls], seq);
    const subject = p.pick(SUBJECTS);
    let subtype: string | null = null;
    let name: string;
    if (cls === DOC) name = `${cap(p.pick(QUALIFIERS))} ${subject} ${p.pick(DOC_KINDS)}`;
    else if (cls === CAD) {
      subtype = c.cls === LIBRARY ? (p.chance(0.9) ? 'CADCOMPONENT' : 'CADASSEMBLY')
        : p.weighted({ CADASSEMBLY: 2, CADCOMPONENT: 6, CADDRAWING: 2 });
      const ext = subtype === 'CADASSEMBLY' ? 'asm' : subtype === 'CADCOMPONENT' ? 'prt' : 'drw';
      name = `${subject.replace(' ', '_')}_${seq}.${ext}`;
    } else if (c.cls === LIBRARY) name = `${cap(p.pick(STANDARD_PARTS))} ${p.pick(SIZES)}x${5 * p.int(2, 20)}`;
    else name = `${cap(p.pick(QUALIFIERS))} ${subject}`;
    this.b.masters.add(`${id}\t${cls}\t${subtype ?? '\\N'}\t${number}\t${name}\t${c.id}\n`);

    const links = this.structure(cls, subtype, c);
    const iterations = p.weighted({ 1: 45, 2: 35, 3: 20 });
    const creator = p.pick(c.writers);
    let created = START_MS + Math.floor(p.next() * SPAN_MS);
    let files: File[] = [];
    let attributes = '';
    for (let it = 1; it <= Number(iterations); it++) {
      // Attributes are set at creation; a later iteration sometimes revises them.
      if (it === 1 || p.chance(0.3)) attributes = this.attributes(cls, subtype, c);
      const latest = it === Number(iterations);
      const modified = created + Math.floor(p.next() * 72 * HOUR);
      const state = latest
        ? p.weighted({ RELEASED: 40, INWORK: 35, UNDERREVIEW: 15, OBSOLETE: 10 })
        : p.weighted({ INWORK: 7, UNDERREVIEW: 3 });
      const iterationId = ++this.iterationId;
      const modifier = p.chance(0.7) ? creator : p.pick(c.writers);
      const title = cls === DOC ? text(`${name}, ${c.name}`) : '\\N';
      const description = p.chance(0.3) ? `Revision A.${it} of ${name.toLowerCase()}` : '\\N';
      this.b.iterations.add(`${iterationId}\t${id}\tA\t${it}\t${latest ? 't' : 'f'}\t${state}\t${title}\t${description}\t` +
        `${attributes}\t${creator}\t${modifier}\t${timestamp(created)}\t${timestamp(modified)}\n`);
      files = this.files(cls, id, number, name, it, files, created);
      for (const f of files) {
        this.b.content_items.add(`${++this.itemId}\t${iterationId}\t${f.role}\t${text(f.name)}\t${f.mime}\t${f.size}\t${f.sha256}\t\\N\t` +
          `${timestamp(created)}\t${timestamp(modified)}\n`);
      }
      if (links.length) this.links(cls, iterationId, links, it);
      created = modified + Math.floor(p.next() * 20 * 24 * HOUR);
    }
    if (cls === PART && c.cls === LIBRARY) this.libraryParts.push(id);
    else if (cls === PART) this.recentParts.add(id);
    if (cls === CAD && subtype !== 'CADDRAWING') this.recentCad.add(id);
  }

  private attributes(cls: BusinessClass, subtype: string | null, c: Container): string {
    const p = this.prng;
    if (cls === DOC) {
      return `{"language": "${p.pick(LANGUAGES)}", "pages": ${p.int(1, 400)}, "department": "${p.pick(DEPARTMENTS)}", "confidential": ${p.chance(0.1)}}`;
    }
    if (cls === CAD && subtype === 'CADDRAWING') {
      return `{"cadApp": "${p.pick(CAD_APPS)}", "sheets": ${p.int(1, 6)}, "format": "${p.pick(['A0', 'A1', 'A2', 'A3', 'A4'])}"}`;
    }
    if (cls === CAD) {
      return `{"cadApp": "${p.pick(CAD_APPS)}", "material": "${p.pick(MATERIALS)}", "mass": ${(p.next() * 50).toFixed(3)}, "units": "${p.pick(UNITS)}"}`;
    }
    const buy = c.cls === LIBRARY || p.chance(0.3);
    const supplier = buy ? `"Supplier ${p.int(1, 40)}"` : 'null';
    return `{"material": "${p.pick(MATERIALS)}", "weight": ${(p.next() * 20).toFixed(3)}, "source": "${buy ? 'buy' : 'make'}", "unitCost": ${(p.next() * 500).toFixed(2)}, "supplier": ${supplier}}`;
  }

  /** The children an assembly uses (parts: part masters; CAD assemblies: CAD masters). */
  private structure(cls: BusinessClass, subtype: string | null, c: Container): Link[] {
    const p = this.prng;
    const out: Link[] = [];
    if (cls === PART && c.cls !== LIBRARY && this.recentParts.size >= 2 && p.chance(0.3)) {
      const n = p.int(2, 8);
      for (let k = 0; k < n; k++) {
        const std = this.libraryParts.length > 0 && p.chance(0.3);
        const child = std ? p.pick(this.libraryParts) : this.recentParts.pick(p);
        if (!out.some((l) => l.child === child)) out.push({ child, quantity: std ? p.int(2, 16) : p.int(1, 3) });
      }
    } else if (subtype === 'CADASSEMBLY' && this.recentCad.size >= 2) {
      const n = p.int(2, 6);
      for (let k = 0; k < n; k++) {
        const child = this.recentCad.pick(p);
        if (!out.some((l) => l.child === child)) out.push({ child, quantity: p.int(1, 4) });
      }
    }
    return out;
  }

  private links(cls: BusinessClass, parent: number, links: Link[], it: number): void {
    // A later iteration usually keeps its structure; sometimes one more child is added.
    if (it > 1 && this.prng.chance(0.3)) {
      const child = cls === PART ? this.recentParts.pick(this.prng) : this.recentCad.pick(this.prng);
      if (!links.some((l) => l.child === child)) links.push({ child, quantity: 1 });
    }
    for (const [k, l] of links.entries()) {
      this.b.usage_links.add(cls === PART
        ? `${++this.linkId}\t${PART_LINK}\t${parent}\t${l.child}\t${l.quantity}\tea\t${10 * (k + 1)}\n`
        : `${++this.linkId}\t${MEMBER_LINK}\t${parent}\t${l.child}\t${l.quantity}\tea\t\\N\n`);
    }
  }

  /** The iteration's files: new ones at iteration 1, later each kept (same blob) or revised. */
  private files(
    cls: BusinessClass, id: number, number: string, name: string, it: number, previous: File[], created: number,
  ): File[] {
    const out: File[] = [];
    for (let f = 0; f < this.filesPerObject; f++) {
      const prev = previous[f];
      if (prev && this.prng.chance(0.6)) {
        out.push(prev);
        continue;
      }
      const [fileName, mime, role] = prev ? [prev.name, prev.mime, prev.role] : this.fileName(cls, number, name, f);
      // The header makes every content unique, so blobs never collide on their hash.
      let body = `${fileName}\nobject ${id} file ${f} revision A.${it}\n${number} ${name}\n`;
      const size = this.prng.int(64, 512);
      while (body.length < size) body += this.prng.pick(FILE_LINES) + '\n';
      const bytes = Buffer.from(body, 'utf8');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      this.b.content_blobs.add(`${sha256}\t${bytes.length}\t${timestamp(created)}\n`);
      this.b.blob_chunks.add(`${sha256}\t0\t${bytea(bytes)}\n`);
      this.b.fileBytes += bytes.length;
      out.push({ name: fileName, mime, role, sha256, size: bytes.length });
    }
    return out;
  }

  private fileName(cls: BusinessClass, number: string, name: string, f: number): [string, string, string] {
    if (cls === DOC) {
      if (f > 0) return [`attachment-${f}.txt`, 'text/plain', 'SECONDARY'];
      const [ext, mime] = this.prng.pick(DOC_FORMATS);
      return [`${number}.${ext}`, mime, 'PRIMARY'];
    }
    if (cls === CAD) {
      if (f === 0) return [name, 'application/octet-stream', 'PRIMARY'];
      return [`${name.replace(/\.\w+$/, '')}-${f}.step`, 'model/step', 'SECONDARY'];
    }
    return [`${number}-datasheet-${f + 1}.txt`, 'text/plain', 'SECONDARY'];
  }

  /** Ids handed out so far, for fixing up the sequences. */
  counts(): { masters: number; iterations: number; content_items: number; usage_links: number } {
    return { masters: this.masterId, iterations: this.iterationId, content_items: this.itemId, usage_links: this.linkId };
  }
}
