// The content-disposition package ships no types; this is the part of its API the file service uses.
declare module 'content-disposition' {
  interface Options {
    type?: string;
    /** ASCII name for the plain filename parameter; the real name then goes in filename*. */
    fallback?: string | boolean;
  }
  function contentDisposition(filename?: string, options?: Options): string;
  export default contentDisposition;
}
