// What one direction's training needs, as plain structured-clone-safe data (shared arrays
// are shared, not copied), and the loop that runs it to the end in a worker thread.
import { barrierWait } from './barrier.ts';
import type { Constraints } from './constraints.ts';
import type { BitextArrays } from './corpus.ts';
import type { Posteriors } from './estep.ts';
import type { Lexicon } from './lexicon.ts';
import type { TrainPlan } from './methods.ts';
import type { ModelParams } from './model.ts';
import { DirectionTrainer, type TrainerInit } from './trainer.ts';
import { makeView, type Direction } from './view.ts';

export interface DirectionJob {
  arrays: BitextArrays;
  srcTypes: number;
  tgtTypes: number;
  dir: Direction;
  plan: TrainPlan;
  out: Posteriors;
  /** the other direction's per-cell posteriors (agreement) */
  other: Float32Array;
  constraints: Constraints;
  prior: Float32Array | null;
  init: TrainerInit;
}

export interface DirectionResult {
  lex: Lexicon;
  params: ModelParams;
}

export function makeTrainer(job: DirectionJob): DirectionTrainer {
  const v = makeView(job.arrays, job.dir, job.srcTypes, job.tgtTypes);
  return new DirectionTrainer(v, job.plan, { out: job.out, constraints: job.constraints, prior: job.prior }, job.init);
}

/** Runs all iterations, meeting the other direction's thread at `barrier` when agreeing. */
export function runDirectionJob(job: DirectionJob, barrier: Int32Array, onIteration: (it: number) => void): DirectionResult {
  const tr = makeTrainer(job);
  for (let it = 0; it < tr.total; it++) {
    tr.expect(it);
    if (tr.agreement) {
      barrierWait(barrier, 2);
      tr.agree(job.other);
      barrierWait(barrier, 2);
    }
    tr.maximize();
    onIteration(it);
  }
  return tr.result();
}
