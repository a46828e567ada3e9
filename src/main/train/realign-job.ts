// The Models page's Re-align job: aligns every pair of the project with one checkpoint of
// a training run, in a worker thread (a fine-tuned encoder's: awesome-align's extraction
// over its folder, encoder.worker.ts; a BiLSTM's: aligner.ts extraction, its EM counting the
// gold links; the gold of the held-out pairs, which no run trains on (models/bilstm/held-out.ts),
// teaches the link decision when there is enough of it: neural.worker.ts), keeps the linguists' corrections
// (align/corrections.ts: every gold link kept with score 1, no rejected link proposed) and
// stores the result as a model alignment of that model and run (store/model-alignments.ts),
// each link's confidence as its score, so the review queue ranks pairs by the model's
// uncertainty. With enough held-out gold, the alignment records how reliable its scores
// are there (eval/calibration.ts), and on request stores them calibrated on it — not by
// default: on the neural bench's four cases calibration lowered the ECE in two and raised
// it in two (docs/experiments.md), the same on average, and it ties scores the queue ranks by.
import type { AlignedPair, Link } from '../../shared/domain.ts';
import { aerKeySets, alignedRefs, linkKey } from '../../shared/link-set.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import { capabilitiesOf } from '../../shared/methods.ts';
import { goldAsLinks, withCorrections } from '../align/corrections.ts';
import { calibrate, fitCalibration, type Sample } from '../eval/calibration.ts';
import type { JobContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import { storeModelAlignment } from '../store/model-alignments.ts';
import { goldByPair, loadCorpus, type ProjectCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { getRun } from '../store/training-runs.ts';
import { HELD_OUT_SHARE, heldOutPairs } from '../models/bilstm/held-out.ts';
import type { EncoderAlignResult, EncoderTask } from './encoder.worker.ts';
import { FINETUNED_ALIGNER } from './finetune-job.ts';
import type { NeuralAlignResult, NeuralReport, NeuralTask } from './neural-protocol.ts';
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
  return { signal: ctx.signal, progress: (p) => ctx.progress({ ...p, message: `epoch ${epoch}: ${p.message ?? 'aligning'}` }) };
}

/** A BiLSTM checkpoint's links, in a worker thread (train-split gold counted by its EM, held-out gold teaching the link decision). */
function neuralLinks(
  modelDir: string,
  corpus: ProjectCorpus,
  gold: readonly (AlignedPair | undefined)[],
  held: readonly boolean[],
  options: TrainOptions,
  sym: string,
  ctx: JobContext,
): Promise<NeuralAlignResult> {
  const linksOf = (inTraining: boolean) => gold.map((g, k) => (g && !held[k] === inTraining ? alignedRefs(g) : []));
  const task: NeuralTask = {
    type: 'align',
    modelDir,
    src: corpus.src,
    tgt: corpus.tgt,
    gold: linksOf(true),
    heldOut: linksOf(false),
    sym,
    device: options.device,
  };
  return runInWorker<NeuralTask, NeuralAlignResult, NeuralReport>(new URL('./neural.worker.ts', import.meta.url), task, ctx);
}

/** A fine-tuned encoder checkpoint's links (awesome-align's extraction over the folder), in a worker thread. */
async function finetunedLinks(modelDir: string, corpus: ProjectCorpus, options: TrainOptions, ctx: JobContext): Promise<NeuralAlignResult> {
  const task: EncoderTask = {
    type: 'align',
    dir: modelDir,
    method: FINETUNED_ALIGNER,
    device: options.device,
    src: corpus.src,
    tgt: corpus.tgt,
    label: 'aligning',
  };
  const r = await runInWorker<EncoderTask, EncoderAlignResult>(new URL('./encoder.worker.ts', import.meta.url), task, ctx);
  return { links: r.links, decidedBy: `${FINETUNED_ALIGNER} layer ${r.layer}` };
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
  const gold = goldByPair(store, corpus.ids);
  const held = heldOutPairs(
    gold.map((g) => g && alignedRefs(g)),
    HELD_OUT_SHARE,
    corpus.split,
  );
  const work = epochContext(ctx, target.epoch);
  const found = capabilitiesOf(options.method).pretrainedEncoder
    ? await finetunedLinks(modelDir, corpus, options, work)
    : await neuralLinks(modelDir, corpus, gold, held, options, target.sym, work);
  let links = found.links;
  const rejected = rejectedByPair(store, corpus.ids);
  const fitted = fitCalibration(heldOutSamples(links, gold, held), target.calibrate ?? false);
  if (fitted?.summary.applied) links = links.map((ls) => ls.map((l) => ({ ...l, score: calibrate(fitted.map, l.score ?? 1) })));
  const name = `${options.method} run ${target.runId} · epoch ${target.epoch} + ${found.decidedBy}`;
  const count = storeModelAlignment(
    store,
    { name, modelId: row.model_id, runId: target.runId, calibration: fitted?.summary },
    corpus.ids,
    corpus.ids.map((_, k) => withCorrections(links[k] ?? [], goldAsLinks(gold[k]), rejected[k])),
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
