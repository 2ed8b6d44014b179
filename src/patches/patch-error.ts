import { PATCHED_VERSIONS } from './versions.js';

/**
 * A library lacks the internal a patch of src/patches relies on: the patch cannot work on the
 * version installed. The message names the patch, what is missing, and the package and version
 * the patch was written for.
 */
export class PatchError extends Error {
  constructor(patch: string, missing: string) {
    const p = PATCHED_VERSIONS.find((v) => v.patch === patch);
    const written = p ? `, written for ${p.package} ${p.writtenFor},` : '';
    super(
      `src/patches/${patch}.ts${written} cannot work: ${missing}. ` +
        'Its header says what it touches: rewrite it for the version installed, or remove it.',
    );
    this.name = 'PatchError';
  }
}
