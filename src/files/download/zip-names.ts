/**
 * Entry names of the ZIP archives the file service builds: every name is one safe path segment
 * (no `..`, no absolute path, no separators, no control characters, nothing Windows refuses),
 * and no two entries of a folder collide, not even in case-insensitive file systems.
 */

/** Longest segment, in characters: leaves room below the 255 bytes most file systems allow. */
const MAX_SEGMENT = 120;

/** Windows device names, refused there whatever their extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** One path segment made safe to extract anywhere; never empty, never `.` or `..`. */
export function safeSegment(raw: string): string {
  let name = raw
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '_')
    .replace(/[/\\:*?"<>|]/g, '_')
    .trim()
    // Windows drops trailing dots and spaces; a leading dot hides the file (or makes `..`).
    .replace(/[. ]+$/, '')
    .replace(/^\.+/, '_');
  if (name === '') name = '_';
  if (RESERVED.test(name)) name = `_${name}`;
  if (name.length > MAX_SEGMENT) {
    const ext = /\.[^.]{1,10}$/.exec(name)?.[0] ?? '';
    name = name.slice(0, MAX_SEGMENT - ext.length) + ext;
  }
  return name;
}

/**
 * The names taken in one archive: `take(folder, name)` returns a path not taken yet (compared
 * without case), adding ` (2)`, ` (3)` … before the extension when the safe name is.
 */
export class ZipNames {
  private readonly taken = new Set<string>();

  /** `folder` is a safe segment (or '' for the top); `name` anything. */
  take(folder: string, name: string): string {
    const safe = safeSegment(name);
    const dot = safe.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? safe : `${stem} (${n})${ext}`;
      const path = folder === '' ? candidate : `${folder}/${candidate}`;
      const key = path.toLowerCase();
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return path;
      }
    }
  }

  /** A folder of its own at the top, from `name`; returns the safe, unique folder name. */
  folder(name: string): string {
    return this.take('', name);
  }
}
