// Compact token encoding: a Uint32Array of UTF-16 offsets [start0, end0, start1, end1, ...]
// into the sentence text. The store keeps one such blob per pair side, and the segmentation
// pool moves tokens across threads this way; token text is recovered by slicing.
import type { Token } from '../../shared/domain.ts';

export function encodeOffsets(tokens: readonly Token[]): Uint32Array {
  const out = new Uint32Array(tokens.length * 2);
  for (let i = 0; i < tokens.length; i++) {
    out[2 * i] = tokens[i].start;
    out[2 * i + 1] = tokens[i].end;
  }
  return out;
}

/** Throws a RangeError unless `offsets` are pairs (start, end) of non-empty spans within `text`. */
export function checkOffsets(text: string, offsets: ArrayLike<number>): void {
  if (offsets.length % 2 !== 0) throw new RangeError('token offsets: odd length');
  for (let i = 0; i < offsets.length; i += 2) {
    const start = offsets[i];
    const end = offsets[i + 1];
    if (!(start < end && end <= text.length)) {
      throw new RangeError(`token offsets: bad span ${start}..${end} for text of ${text.length}`);
    }
  }
}

/** Tokens of `text` from an offsets array; throws on a malformed array (checkOffsets). */
export function decodeTokens(text: string, offsets: ArrayLike<number>): Token[] {
  checkOffsets(text, offsets);
  const tokens: Token[] = new Array(offsets.length / 2);
  for (let i = 0; i < tokens.length; i++) {
    const start = offsets[2 * i];
    const end = offsets[2 * i + 1];
    tokens[i] = { text: text.slice(start, end), start, end };
  }
  return tokens;
}
