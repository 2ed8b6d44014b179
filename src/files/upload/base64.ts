import { InputError } from '../../common/input-error.js';

/**
 * Strict base64 (RFC 4648 §4, standard alphabet, padded, canonical). Node's own decoder skips
 * anything it does not understand, so a truncated or mangled upload would be stored silently;
 * here every deviation is an error whose message says what is wrong and where.
 */
export class Base64Error extends InputError {}

const OUTSIDE_ALPHABET = /[^A-Za-z0-9+/=]/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The number of bytes the text decodes to, assuming it is valid (for size limits before decoding). */
export function decodedLength(text: string): number {
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor(text.length / 4) * 3 - pad;
}

/**
 * The bytes of strict base64 text. A Base64Error says what is wrong, as the rest of a sentence
 * whose subject (e.g. "data", the field that held the text) comes first when given.
 */
export function decodeBase64Strict(text: string, subject?: string): Buffer {
  const problem = base64Problem(text);
  if (problem !== null) throw new Base64Error(subject ? `${subject} ${problem}` : problem);
  return Buffer.from(text, 'base64');
}

function base64Problem(text: string): string | null {
  if (/^data:/i.test(text)) {
    return 'is a data: URL; send only the base64 text after the comma';
  }
  const bad = OUTSIDE_ALPHABET.exec(text);
  if (bad) return `has ${describe(bad[0])} at position ${bad.index}, which is not base64`;
  const firstPad = text.indexOf('=');
  if (firstPad !== -1 && (firstPad < text.length - 2 || (firstPad === text.length - 2 && text[firstPad + 1] !== '='))) {
    return `has padding '=' at position ${firstPad}, before the end`;
  }
  if (text.length % 4 !== 0) {
    return `is ${text.length} characters long, not a multiple of 4 (padding '=' missing?)`;
  }
  // The bits the padding hides must be zero, or two different texts would decode to the same bytes.
  if (firstPad !== -1) {
    const last = ALPHABET.indexOf(text[firstPad - 1]);
    const hidden = firstPad === text.length - 2 ? last & 0x0f : last & 0x03;
    if (hidden !== 0) {
      return `is not canonical: the character before the padding at position ${firstPad} has bits set that no byte uses`;
    }
  }
  return null;
}

function describe(ch: string): string {
  if (ch === '\n' || ch === '\r') return 'a line break (send base64 without line breaks, e.g. `base64 -w0`)';
  if (ch === ' ' || ch === '\t') return 'white space';
  if (ch === '-' || ch === '_') return `'${ch}' (base64url; use the standard alphabet with + and /)`;
  const code = ch.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `the control character U+${code.toString(16).padStart(4, '0')}` : `'${ch}'`;
}
