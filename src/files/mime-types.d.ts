// The mime-types package ships no types; this is the part of its API the file service uses.
declare module 'mime-types' {
  /** The media type for a file name or extension, or false when the table has none. */
  export function lookup(pathOrExtension: string): string | false;
}
