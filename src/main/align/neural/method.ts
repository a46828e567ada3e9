// The neural alignment methods offered next to the statistical ones (CLI --method): each
// is a configuration of the neural aligner. Gold links switch on the word-level objectives
// with seed 000's weights unless the caller gives its own.
//   bilstm-ctl  Wada et al. + multi-view contrastive loss (seed 003)
//   bilstm      Wada et al. alone (λ = 0), the ablation baseline
import type { Link } from '../../../shared/domain.ts';
import { alignNeural, type NeuralAlignResult } from './aligner.ts';
import { type NeuralConfig, SUPERVISED_WEIGHTS, type TrainData, type TrainHooks } from './train.ts';
import type { PairLinks } from './vocab.ts';

export const NEURAL_METHODS: Record<string, Partial<NeuralConfig>> = {
  'bilstm-ctl': {},
  bilstm: { ctlWeight: 0 },
};

export function isNeuralMethod(name: string | undefined): boolean {
  return name !== undefined && name in NEURAL_METHODS;
}

/** Trains the named method on the data (gold links, if any, as supervision) and aligns it. */
export async function runNeuralMethod(
  name: string, data: TrainData, overrides: Partial<NeuralConfig> = {}, hooks: TrainHooks & { sym?: string } = {},
): Promise<NeuralAlignResult> {
  const supervised = data.gold?.some((g) => g?.length) ?? false;
  const config = { ...NEURAL_METHODS[name], ...(supervised ? { weights: SUPERVISED_WEIGHTS } : {}), ...overrides };
  const r = await alignNeural(data, config, hooks);
  return { ...r, links: r.links.map((ls, k) => withGold(ls, data.gold?.[k])) };
}

/** A pair's model links with its gold links added (score 1), sorted by (s, t). */
function withGold(links: Link[], gold: PairLinks): Link[] {
  if (!gold?.length) return links;
  const have = new Set(links.map((l) => `${l.s}-${l.t}`));
  const extra = gold.filter((g) => !have.has(`${g.s}-${g.t}`)).map((g): Link => ({ s: g.s, t: g.t, kind: 'sure', score: 1 }));
  return [...links, ...extra].sort((a, b) => a.s - b.s || a.t - b.t);
}
