// Link scores (a model's posterior of a link, 0–1) as every part of Mekong uses them: the
// default threshold at which a model's link counts as confident (bulk accept in the editor,
// pseudo-labels and self-training: seed 000's 0.9), and how a score is shown.

/** The score at or above which a model's link counts as confident, unless the user says otherwise. */
export const LINK_THRESHOLD = 0.9;

/**
 * A score with two decimals, rounded down: a link shown as "0.90" really is ≥ 0.9, so what
 * the editor shows agrees with what "Accept all ≥ 0.9" takes (0.8961 shows as "0.89").
 */
export function formatScore(score: number): string {
  const floored = Math.floor(score * 100 + 1e-9) / 100;
  return floored.toFixed(2);
}
