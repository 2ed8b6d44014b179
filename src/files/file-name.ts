/**
 * File names and media types of content items, shared by the file service and the dataset
 * importer so that both accept exactly the same names.
 */

import { lookup } from 'mime-types';

/**
 * Extensions whose usual meaning in a PDM vault differs from the common table: Creo parts,
 * assemblies and drawings (.prt, .asm, .drw) are binary CAD files, not source code or anything
 * a browser should interpret.
 */
const MIME_OVERRIDES: Record<string, string> = {
  prt: 'application/octet-stream',
  asm: 'application/octet-stream',
  drw: 'application/octet-stream',
};

/** The media type of a new file from its extension: our overrides, then the mime-types table. */
export function guessMimeType(filename: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (!ext) return 'application/octet-stream';
  return MIME_OVERRIDES[ext] ?? (lookup(ext) || 'application/octet-stream');
}

/**
 * A file name valid in a content holder: no path parts, no control characters (C0, DEL, C1),
 * at most 255 bytes of UTF-8. Names are compared in NFC, so check the normalised form.
 */
export function fileNameProblem(name: string): string | null {
  if (name === '' || name === '.' || name === '..') return 'is not a file name';
  if (/[/\\]/.test(name)) return 'must not contain / or \\';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'must not contain control characters';
  if (Buffer.byteLength(name, 'utf8') > 255) return 'is longer than 255 bytes';
  return null;
}

/** A media type as stored with a content item: type/subtype, no parameters. */
export function isMediaType(value: string): boolean {
  return value.length <= 255 && /^[\w.+-]+\/[\w.+-]+$/.test(value);
}
