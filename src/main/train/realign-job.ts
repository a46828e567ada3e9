// The Models page's Re-align job: aligns every pair of the project with one checkpoint of
// a training run, by the run's family (its registry entry's run jobs, aligners/registry.ts:
// a BiLSTM's extraction in train-job.ts, a fine-tuned encoder's in finetune-job.ts, each in
// a worker thread), the gold pairs held out of training marked (models/bilstm/held-out.ts; which
// pairs count as gold: store/pair-corpus.ts), keeps the linguists' corrections
// (align/corrections.ts: every gold link kept with score 1, partial gold too, no rejected link proposed) and
// stores the result as a model alignment of that model and run (store/model-alignments.ts),
// each link's confidence as its score, so the review queue ranks pairs by the model's
// uncertainty. With enough held-out gold, the alignment records how reliable its scores
// are there (eval/calibration.ts), and on request stores them calibrated on it — not by
// default: on the neural bench's four cases calibration lowered the ECE in two and raised
// it in two (docs/experiments.md), the same on average, and it ties scores the queue ranks by.
import type { AlignedPair, Link } from '../../shared/domain.ts';
import { aerKeySets, alignedRefs, linkKey } from '../../shared/link-set.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import { goldAsLinks, withCorrections } from '../align/corrections.ts';
import { calibrate, fitCalibration, type Sample } from '../eval/calibration.ts';
import { type JobContext, withMessage } from '../jobs/job-context.ts';
import { storeModelAlignment } from '../store/model-alignments.ts';
import { goldByPair, loadCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { getRun } from '../store/training-runs.ts';
import { HELD_OUT_SHARE, heldOutPairs } from '../models/bilstm/held-out.ts';
import { runJobsOf } from '../aligners/registry.ts';
import { checkpointDir, runDir } from './run-files.ts';

/** Each held-out pair's model links (before corrections) scored against its gold. */
function heldOutSamples(found: readonly Link[][], gold: readonly (AlignedPair | undefined)[], held: readonly boolean[]): Sample[][] {
  return found.flatMap((links, k) => {
    const g = gold[k];
    if (!g || !held[k]) return [];
    const possible = aerKeySets(g).possible;
    return [links.map((l) => ({ score: l.score ?? 1, correct: possible.has(linkKey(l.s, l.t)) }))];
  });
}

/** Progress of aligning with checkpoint `epoch`: the worker's, its line naming the epoch. */
function epochContext(ctx: JobContext, epoch: number): JobContext {
  return withMessage(ctx, (p) => `epoch ${epoch}: ${p.message ?? 'aligning'}`);
}

/** Runs the job; returns a one-line summary. */
export async function realignRun(
  store: ProjectStore,
  target: { runId: number; epoch: number; sym: string; calibrate?: boolean },
  ctx: JobContext,
): Promise<string> {
  const row = getRun(store, target.runId);
  const options = JSON.parse(row.config) as TrainOptions;
  const corpus = loadCorpus(store, options.lowercase);
  const modelDir = checkpointDir(runDir(store.path, target.runId), target.epoch);
  const gold = goldByPair(store, corpus.ids, 'counting');
  const held = heldOutPairs(
    gold.map((g) => g && alignedRefs(g)),
    HELD_OUT_SHARE,
    corpus.split,
  );
  const work = epochContext(ctx, target.epoch);
  const jobs = await runJobsOf(options.method);
  const found = await jobs.alignCheckpoint({ modelDir, corpus, gold, held, options, sym: target.sym }, work);
  let links = found.links;
  const rejected = rejectedByPair(store, corpus.ids);
  const corrections = goldByPair(store, corpus.ids, 'all');
  const fitted = fitCalibration(heldOutSamples(links, gold, held), target.calibrate ?? false);
  if (fitted?.summary.applied) links = links.map((ls) => ls.map((l) => ({ ...l, score: calibrate(fitted.map, l.score ?? 1) })));
  const name = `${options.method} run ${target.runId} · epoch ${target.epoch} + ${found.decidedBy}`;
  const count = await storeModelAlignment(
    store,
    { name, modelId: row.model_id, runId: target.runId, calibration: fitted?.summary },
    corpus.ids,
    (k) => withCorrections(links[k] ?? [], goldAsLinks(corrections[k]), rejected[k]),
    ctx.signal,
  );
  const ece = fitted ? `ECE ${fitted.summary.eceRaw.toFixed(3)} → ${fitted.summary.eceCalibrated.toFixed(3)}` : '';
  const calibrated = !fitted
    ? ''
    : fitted.summary.applied
      ? `; scores calibrated on ${fitted.summary.links} links of ${fitted.summary.pairs} held-out pairs (${ece})`
      : target.calibrate
        ? `; scores left raw: calibrating on ${fitted.summary.pairs} held-out pairs did not lower their error (${ece})`
        : `; score reliability measured on ${fitted.summary.pairs} held-out pairs (${ece} if calibrated)`;
  return `re-aligned ${corpus.ids.length} pairs with ${name}: ${count} links${calibrated}`;
}
