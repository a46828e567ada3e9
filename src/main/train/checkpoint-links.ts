// The Models page's Re-align on the thread that reads the project (align/project-align.worker.ts,
// the one way a job aligns a project's pairs off the serving thread): every pair aligned with one
// checkpoint of a training run, by the run's family (its registry entry's run jobs,
// aligners/registry.ts: a BiLSTM's extraction in train-job.ts, a fine-tuned encoder's in
// finetune-job.ts, each in a worker thread), the gold pairs held out of training marked
// (models/bilstm/held-out.ts; which pairs count as gold: store/pair-corpus.ts), the linguists'
// corrections applied (align/corrections.ts: every gold link kept with score 1, partial gold
// too, no rejected link proposed). With enough held-out gold, it measures how reliable the
// scores are there (eval/calibration.ts), and on request calibrates them on it — not by
// default: on the neural bench's four cases calibration lowered the ECE in two and raised it
// in two (docs/experiments.md), the same on average, and it ties scores the queue ranks by.
import type { AlignedPair, Link } from '../../shared/domain.ts';
import type { Calibration } from '../../shared/calibration-report.ts';
import { aerKeySets, alignedRefs, linkKey } from '../../shared/link-set.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import { goldAsLinks, withCorrections } from '../align/corrections.ts';
import { runJobsOf } from '../aligners/registry.ts';
import { calibrate, fitCalibration, type Sample } from '../eval/calibration.ts';
import { type JobContext, withMessage } from '../jobs/job-context.ts';
import { HELD_OUT_SHARE, heldOutPairs } from '../models/bilstm/held-out.ts';
import { goldByPair, loadCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { getRun } from '../store/training-runs.ts';
import { checkpointDir, runDir } from './run-files.ts';

/** The checkpoint to align with: epoch `epoch` of run `runId`, symmetrised by `sym`. */
export interface CheckpointTarget {
  runId: number;
  epoch: number;
  sym: string;
  calibrate?: boolean;
}

/** What the links were made with, for the alignment's record and the job's summary. */
export interface CheckpointAbout {
  /** the alignment's name: "<method> run R · epoch E + <what decided the links>" */
  name: string;
  modelId: number;
  /** the scores' reliability on the held-out gold, when there was enough of it (applied: the scores are calibrated) */
  calibration?: Calibration;
}

/** Each held-out pair's model links (before corrections) scored against its gold. */
function heldOutSamples(found: readonly Link[][], gold: readonly (AlignedPair | undefined)[], held: readonly boolean[]): Sample[][] {
  return found.flatMap((links, k) => {
    const g = gold[k];
    if (!g || !held[k]) return [];
    const possible = aerKeySets(g).possible;
    return [links.map((l) => ({ score: l.score ?? 1, correct: possible.has(linkKey(l.s, l.t)) }))];
  });
}

/** Every visible pair's links with the checkpoint, corrections applied (`store` is the worker's reader). */
export async function checkpointLinks(
  store: ProjectStore,
  target: CheckpointTarget,
  ctx: JobContext,
): Promise<{ ids: number[]; links: Iterable<readonly Link[]>; about: CheckpointAbout }> {
  const row = getRun(store, target.runId);
  const options = JSON.parse(row.config) as TrainOptions;
  const corpus = loadCorpus(store, options.lowercase ?? false);
  const modelDir = checkpointDir(runDir(store.path, target.runId), target.epoch);
  const gold = goldByPair(store, corpus.ids, 'counting');
  const held = heldOutPairs(
    gold.map((g) => g && alignedRefs(g)),
    HELD_OUT_SHARE,
    corpus.split,
  );
  const work = withMessage(ctx, (p) => `epoch ${target.epoch}: ${p.message ?? 'aligning'}`);
  const jobs = await runJobsOf(options.method);
  const found = await jobs.alignCheckpoint({ modelDir, corpus, gold, held, options, sym: target.sym }, work);
  let links = found.links;
  const rejected = rejectedByPair(store, corpus.ids);
  const corrections = goldByPair(store, corpus.ids, 'all');
  const fitted = fitCalibration(heldOutSamples(links, gold, held), target.calibrate ?? false);
  if (fitted?.summary.applied) links = links.map((ls) => ls.map((l) => ({ ...l, score: calibrate(fitted.map, l.score ?? 1) })));
  return {
    ids: corpus.ids,
    links: corpus.ids.map((_, k) => withCorrections(links[k] ?? [], goldAsLinks(corrections[k]), rejected[k])),
    about: {
      name: `${options.method} run ${target.runId} · epoch ${target.epoch} + ${found.decidedBy}`,
      modelId: row.model_id,
      ...(fitted ? { calibration: fitted.summary } : {}),
    },
  };
}
