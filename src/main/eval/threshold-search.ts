// The F1-optimal decision threshold over scored candidates (seed 001 appendix B, as for
// BUCC): sort the candidates' scores, try every middle point of two consecutive distinct
// scores as the threshold (accept score ≥ threshold), and keep the one of best F1 against
// the number of true items (`positives`: what a perfect decision would accept, which may
// exceed the correct candidates when some true items were never proposed).

export interface ScoredCandidate {
  score: number;
  correct: boolean;
}

export interface ThresholdChoice {
  threshold: number;
  precision: number;
  recall: number;
  f1: number;
  /** candidates accepted at this threshold */
  accepted: number;
}

/** The best threshold; with no correct candidate, +Infinity (accept nothing) and zero figures. */
export function bestThreshold(candidates: readonly ScoredCandidate[], positives: number): ThresholdChoice {
  const sorted = [...candidates].sort((a, b) => b.score - a.score);
  let best: ThresholdChoice = { threshold: Infinity, precision: 0, recall: 0, f1: 0, accepted: 0 };
  let tp = 0;
  for (let m = 0; m < sorted.length; m++) {
    if (sorted[m].correct) tp++;
    // A cut between equal scores cannot be made: wait for the last of a run of ties.
    if (m + 1 < sorted.length && sorted[m + 1].score === sorted[m].score) continue;
    const precision = tp / (m + 1);
    const recall = positives > 0 ? tp / positives : 0;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    if (f1 > best.f1) {
      // Accepting every candidate: the lowest score itself is the threshold.
      const threshold = m + 1 < sorted.length ? (sorted[m].score + sorted[m + 1].score) / 2 : sorted[m].score;
      best = { threshold, precision, recall, f1, accepted: m + 1 };
    }
  }
  return best;
}
