// How a pair's parallelism score reads in the pair list: the score, whether it is under the
// project's threshold, and the best other candidate that made it so (seed 001's margin
// compares a pair with its sentences' nearest other partners).
import type { Parallelism } from '../../shared/domain.ts';

export function parallelismTitle(p: Parallelism): string {
  const head = `parallelism ${p.score.toFixed(3)}${p.misaligned ? ': under the threshold, likely misaligned' : ''}`;
  if (!p.rival) return head;
  const whose = p.rival.side === 'target' ? `the target of pair #${p.rival.pairId}` : `the source of pair #${p.rival.pairId}`;
  return `${head}; best other candidate: ${whose} (${p.rival.score.toFixed(3)})`;
}
