// Mined sentence pairs scored against gold, BUCC's protocol (Zweigenbaum et al. 2017; seed
// 001 appendix B): the proposed pairs P (src_id<TAB>tgt_id<TAB>score, as `mekong mine`
// writes them) and the gold pairs G (src_id<TAB>tgt_id);
//   precision = |P∩G| / |P|,   recall = |P∩G| / |G|,   F1 = 2·precision·recall / (precision + recall).
// The decision threshold is fitted where the gold is known (BUCC's train split: the F1-optimal
// threshold over the proposed pairs' scores, threshold-search.ts) and applied unchanged to the
// pairs proposed on the test split: a pair is kept when its score ≥ the threshold.
import { InputError } from '../errors.ts';
import { bestThreshold, type ThresholdChoice } from './threshold-search.ts';

export interface MinedLine {
  src: string;
  tgt: string;
  /** null when the file has no score column */
  score: number | null;
  /** 1-based line in its file */
  line: number;
}

const key = (src: string, tgt: string) => `${src}\t${tgt}`;

/** Lines of `id<TAB>id` (gold) or `id<TAB>id[<TAB>score]` (pred); a bad line, or a pair given twice, is an InputError. */
function parsePairs(text: string, file: string, what: 'pred' | 'gold'): MinedLine[] {
  const out: MinedLine[] = [];
  const seen = new Map<string, number>();
  text.split('\n').forEach((raw, k) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const f = line.split('\t');
    const most = what === 'pred' ? 3 : 2;
    if (f.length < 2 || f.length > most || !f[0] || !f[1])
      throw new InputError(file, k + 1, `expected src_id<TAB>tgt_id${what === 'pred' ? '[<TAB>score]' : ''}, got "${line.slice(0, 80)}"`);
    let score: number | null = null;
    if (f.length === 3) {
      score = Number(f[2]);
      if (f[2].trim() === '' || !Number.isFinite(score)) throw new InputError(file, k + 1, `score "${f[2]}" is not a number`);
    }
    const at = seen.get(key(f[0], f[1]));
    if (at !== undefined) throw new InputError(file, k + 1, `the pair ${f[0]} ${f[1]} is already on line ${at}`);
    seen.set(key(f[0], f[1]), k + 1);
    out.push({ src: f[0], tgt: f[1], score, line: k + 1 });
  });
  return out;
}

/** Proposed pairs: `src_id<TAB>tgt_id[<TAB>score]` lines. */
export const parseMinedPairs = (text: string, file: string): MinedLine[] => parsePairs(text, file, 'pred');

/** Gold pairs: `src_id<TAB>tgt_id` lines, as a set of keys. */
export function parseGoldPairs(text: string, file: string): Set<string> {
  return new Set(parsePairs(text, file, 'gold').map((p) => key(p.src, p.tgt)));
}

export interface MiningScore {
  precision: number;
  recall: number;
  f1: number;
  /** pairs kept (all, or those scoring at least the threshold) */
  proposed: number;
  correct: number;
  gold: number;
}

/** The scores of pairs that must have one (a threshold is fitted on them or applied to them). */
function scoresOf(pred: readonly MinedLine[], file: string): number[] {
  return pred.map((p) => {
    if (p.score === null) throw new InputError(file, p.line, 'no score: a threshold needs each pair scored (src_id<TAB>tgt_id<TAB>score)');
    return p.score;
  });
}

/** P/R/F1 of the pairs kept (score ≥ `threshold`, or all when none is given) against the gold. */
export function scoreMining(pred: readonly MinedLine[], gold: ReadonlySet<string>, file: string, threshold?: number): MiningScore {
  const scores = threshold === undefined ? null : scoresOf(pred, file);
  const kept = scores ? pred.filter((_, i) => scores[i] >= threshold!) : pred;
  const correct = kept.filter((p) => gold.has(key(p.src, p.tgt))).length;
  const precision = kept.length ? correct / kept.length : 0;
  const recall = gold.size ? correct / gold.size : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, proposed: kept.length, correct, gold: gold.size };
}

/** The F1-optimal threshold over scored proposed pairs with known gold (BUCC's train split). */
export function fitMiningThreshold(pred: readonly MinedLine[], gold: ReadonlySet<string>, file: string): ThresholdChoice {
  const scores = scoresOf(pred, file);
  return bestThreshold(
    pred.map((p, i) => ({ score: scores[i], correct: gold.has(key(p.src, p.tgt)) })),
    gold.size,
  );
}
