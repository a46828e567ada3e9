// A statistical model's trained parameters of both directions, keyed by word strings so they
// can align any new corpus (engine.ts's `model` option), and their mapping onto a new corpus's
// lexical pairs. Saving and loading them as a model folder is saved-model.ts, which a run that
// neither saves nor loads a model never imports (it brings the ONNX serialiser and
// onnxruntime's Tensor class: about 20 MB of a statistical `mekong align`'s peak).
import type { Vocabularies } from './corpus.ts';
import type { ModelParams } from './directional-model.ts';
import type { Lexicon } from './translation-table.ts';
import { PairTable } from './pair-table.ts';

/** One direction's trained parameters. */
export interface DirectionResult {
  lex: Lexicon;
  params: ModelParams;
}

export interface SavedModel {
  method: string;
  lowercase: boolean;
  srcVocab: string[];
  tgtVocab: string[];
  pairSrc: Int32Array;
  pairTgt: Int32Array;
  fwd: DirectionResult;
  rev: DirectionResult;
}

/** Probability given to word pairs the saved model never saw together. */
export const UNSEEN = 1e-7;

function idMap(from: string[], to: string[]): Int32Array {
  const index = new Map<string, number>();
  to.forEach((w, i) => index.set(w, i));
  return Int32Array.from(from, (w) => index.get(w) ?? -1);
}

/** The saved lexicons of both directions re-indexed by `b`'s lexical pairs and vocabularies. */
export function mapLexicons(m: SavedModel, b: Vocabularies): { fwd: Lexicon; rev: Lexicon } {
  const sMap = idMap(b.srcVocab, m.srcVocab),
    tMap = idMap(b.tgtVocab, m.tgtVocab);
  const table = new PairTable();
  for (let p = 0; p < m.pairSrc.length; p++) table.intern(m.pairSrc[p], m.pairTgt[p]);
  const n = b.pairSrc.length;
  const fwd = { t: new Float32Array(n).fill(UNSEEN), tNull: new Float32Array(b.tgtVocab.length).fill(UNSEEN) };
  const rev = { t: new Float32Array(n).fill(UNSEEN), tNull: new Float32Array(b.srcVocab.length).fill(UNSEEN) };
  for (let p = 0; p < n; p++) {
    const s = sMap[b.pairSrc[p]],
      t = tMap[b.pairTgt[p]];
    const q = s >= 0 && t >= 0 ? table.get(s, t) : -1;
    if (q < 0) continue;
    fwd.t[p] = m.fwd.lex.t[q];
    rev.t[p] = m.rev.lex.t[q];
  }
  tMap.forEach((q, id) => q >= 0 && (fwd.tNull[id] = m.fwd.lex.tNull[q]));
  sMap.forEach((q, id) => q >= 0 && (rev.tNull[id] = m.rev.lex.tNull[q]));
  return { fwd, rev };
}
