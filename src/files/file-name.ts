/**
 * File names and media types of content items, shared by the file service and the dataset
 * importer so that both accept exactly the same names.
 */

const MIME_BY_EXT: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  xml: 'application/xml',
  json: 'application/json',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  zip: 'application/zip',
  step: 'model/step',
  stp: 'model/step',
  stl: 'model/stl',
  igs: 'model/iges',
  iges: 'model/iges',
  prt: 'application/octet-stream',
  asm: 'application/octet-stream',
  drw: 'application/octet-stream',
  dwg: 'image/vnd.dwg',
  dxf: 'image/vnd.dxf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function guessMimeType(filename: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return (ext && MIME_BY_EXT[ext]) || 'application/octet-stream';
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
