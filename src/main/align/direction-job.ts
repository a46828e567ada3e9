// What one direction's training needs, as plain structured-clone-safe data (shared arrays
// are shared, not copied), and the loop that runs it to the end in a worker thread.
import { barrierWait } from './barrier.ts';
import type { Constraints } from './constraints.ts';
import { decodeRange, type DecodeOptions, type FlatLinks } from './decode.ts';
import type { BitextArrays } from './corpus.ts';
import type { Posteriors } from './estep.ts';
import type { Lexicon } from './translation-table.ts';
import type { TrainPlan } from './train-plans.ts';
import type { ModelParams } from './directional-model.ts';
import { DirectionTrainer, type TrainerInit } from './em-trainer.ts';
import { makeView, type Direction } from './view.ts';

export interface DirectionJob {
  arrays: BitextArrays;
  srcTypes: number;
  tgtTypes: number;
  dir: Direction;
  plan: TrainPlan;
  out: Posteriors;
  /** the other direction's posteriors (agreement, decoding) */
  peer: Posteriors;
  constraints: Constraints;
  prior: Float32Array | null;
  init: TrainerInit;
  /** when set, the thread also decodes its half of the pairs once both directions are done */
  decode?: DecodeOptions;
}

export interface DirectionResult {
  lex: Lexicon;
  params: ModelParams;
  links?: FlatLinks;
}

export function makeTrainer(job: DirectionJob): DirectionTrainer {
  const v = makeView(job.arrays, job.dir, job.srcTypes, job.tgtTypes);
  return new DirectionTrainer(v, job.plan, { out: job.out, constraints: job.constraints, prior: job.prior }, job.init);
}

/**
 * Runs all iterations, meeting the other direction's thread at `barrier` when agreeing,
 * then (job.decode) decodes half of the pairs: fwd the first, rev the second half.
 */
export function runDirectionJob(job: DirectionJob, barrier: Int32Array, onIteration: (it: number) => void): DirectionResult {
  const tr = makeTrainer(job);
  for (let it = 0; it < tr.total; it++) {
    tr.expect(it);
    if (tr.agreement) {
      barrierWait(barrier, 2);
      tr.agree(job.peer.post);
      barrierWait(barrier, 2);
    }
    tr.maximize();
    onIteration(it);
  }
  if (!job.decode) return tr.result();
  barrierWait(barrier, 2);
  const half = job.arrays.n >> 1;
  const [k0, k1] = job.dir === 'fwd' ? [0, half] : [half, job.arrays.n];
  const [fwd, rev] = job.dir === 'fwd' ? [job.out, job.peer] : [job.peer, job.out];
  return { ...tr.result(), links: decodeRange(job.arrays, k0, k1, fwd, rev, job.constraints, job.decode) };
}
