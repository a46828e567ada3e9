// A re-segmented side as the Re-segment dialog's preview shows it: the tokens before and
// after, each marked changed when the other cut has no token of the same span (a token split
// in two shows changed before, its two halves changed after). A long sentence is shortened to
// the changes and AROUND tokens either side of each, a gap left out shown as one "…".
import type { ResegmentSide } from '../../../shared/api.ts';

export interface ShownToken {
  text: string;
  changed: boolean;
}

/** A shown token, or the mark of tokens left out. */
export type ShownPiece = ShownToken | { gap: true };

const AROUND = 4;

function spans(offsets: readonly number[]): [number, number][] {
  return Array.from({ length: offsets.length / 2 }, (_, k) => [offsets[2 * k], offsets[2 * k + 1]]);
}

/** The changed tokens and AROUND tokens either side of each, the rest left out as gaps. */
function shortened(tokens: ShownToken[]): ShownPiece[] {
  const near = tokens.map(() => false);
  tokens.forEach((t, i) => {
    if (!t.changed) return;
    for (let k = Math.max(0, i - AROUND); k <= Math.min(tokens.length - 1, i + AROUND); k++) near[k] = true;
  });
  const out: ShownPiece[] = [];
  tokens.forEach((t, i) => {
    if (near[i]) out.push(t);
    else if (i === 0 || near[i - 1]) out.push({ gap: true });
  });
  return out;
}

/** The side's tokens before and after, the changed ones marked, shortened to the changes. */
export function resegmentDiff(side: ResegmentSide): { before: ShownPiece[]; after: ShownPiece[] } {
  const [before, after] = [spans(side.before), spans(side.after)];
  const keys = (list: [number, number][]) => new Set(list.map(([a, b]) => `${a}:${b}`));
  const shown = (list: [number, number][], other: Set<string>) =>
    shortened(list.map(([a, b]) => ({ text: side.text.slice(a, b), changed: !other.has(`${a}:${b}`) })));
  return { before: shown(before, keys(after)), after: shown(after, keys(before)) };
}
