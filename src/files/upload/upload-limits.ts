/** JSON around the base64 text of an upload: field names, message, role, mimetype. */
export const JSON_UPLOAD_OVERHEAD = 64 * 1024;

/**
 * The largest file a JSON body within `jsonBodyLimit` can carry as base64. When it is below
 * FILES_MAX_SIZE, larger files can still be sent raw (application/octet-stream), which the
 * JSON body limit does not apply to.
 */
export function largestJsonUpload(jsonBodyLimit: number): number {
  return Math.max(0, Math.floor((jsonBodyLimit - JSON_UPLOAD_OVERHEAD) / 4) * 3);
}
