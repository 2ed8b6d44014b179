import type { Dataset } from './dataset.js';
import type { ImportProgress } from './importer-types.js';

/** The progress of an import of `data` that has stored nothing yet. */
export function nothingStored(data: Dataset): ImportProgress {
  const files = data.objects.flatMap((o) => o.files);
  return {
    objects: 0,
    totalObjects: data.objects.length + data.plainObjects.length,
    files: 0,
    totalFiles: files.length,
    bytes: 0,
    totalBytes: files.reduce((sum, f) => sum + f.bytes.length, 0),
    links: 0,
    totalLinks: data.links.length + data.objects.reduce((sum, o) => sum + o.uses.length, 0),
  };
}

/** Where the progress goes: standard error (a terminal or not). */
export interface ProgressOutput {
  isTTY?: boolean;
  /** The terminal's width: a longer line would wrap, and could not be redrawn in place. */
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressPacing {
  /** On a terminal: the line is redrawn at most this often. */
  redrawMs: number;
  /** Otherwise: a line each time this many more objects are stored … */
  everyObjects: number;
  /** … and after this long without a line. */
  everyMs: number;
}

const PACING: ProgressPacing = { redrawMs: 250, everyObjects: 250, everyMs: 5000 };

/**
 * Shows how far `npm run import` is, which may take minutes with nothing else to see: on a terminal
 * one line redrawn in place (a few times a second at most), otherwise plain lines, for logs: what
 * the dataset holds when storing starts, then every `everyObjects` objects or `everyMs`. The summary
 * at the end is the command's own.
 */
export class ImportProgressReporter {
  private started = false;
  private shownAt = -Infinity;
  private shownObjects = 0;
  /** A line is on the terminal that the next write must replace. */
  private drawn = false;

  constructor(
    private readonly out: ProgressOutput,
    private readonly source: string,
    private readonly now: () => number = Date.now,
    private readonly pacing: ProgressPacing = PACING,
  ) {}

  /** On a terminal: what is being done before anything is stored (starting a database, checking the dataset). */
  note(text: string): void {
    if (this.out.isTTY) this.draw(text);
  }

  update(p: ImportProgress): void {
    const first = !this.started;
    this.started = true;
    const now = this.now();
    if (this.out.isTTY) {
      if (now - this.shownAt < this.pacing.redrawMs) return;
      this.shownAt = now;
      const line = `importing: ${p.objects}/${p.totalObjects} objects, ${p.files}/${p.totalFiles} files (${size(p.bytes)}), ${p.links}/${p.totalLinks} links`;
      this.draw(line);
      return;
    }
    if (first) {
      this.out.write(
        `importing ${this.source}: ${p.totalObjects} objects, ${p.totalFiles} files (${size(p.totalBytes)}), ` +
          `${p.totalLinks} links\n`,
      );
      this.shownAt = now;
      return;
    }
    const objectsDue = p.objects >= this.shownObjects + this.pacing.everyObjects;
    if (!objectsDue && now - this.shownAt < this.pacing.everyMs) return;
    if (objectsDue) this.shownObjects = p.objects - (p.objects % this.pacing.everyObjects);
    this.shownAt = now;
    this.out.write(
      `stored ${p.objects} of ${p.totalObjects} objects, ${p.files} of ${p.totalFiles} files ` +
        `(${size(p.bytes)} of ${size(p.totalBytes)}), ${p.links} of ${p.totalLinks} links\n`,
    );
  }

  /** Replaces the terminal's line, cut to its width: a line that wrapped could not be replaced. */
  private draw(text: string): void {
    this.out.write(`\r\x1b[K${text.slice(0, (this.out.columns || 80) - 1)}`);
    this.drawn = true;
  }

  /** The import ended (stored or not): the terminal's line is cleared for what the command says next. */
  finish(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }
}

/** Bytes in binary units, as the documentation gives sizes (4 MiB). */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
