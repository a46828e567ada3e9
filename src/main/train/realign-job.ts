// The Models page's Re-align job: aligns every pair of the project with one checkpoint of
// a training run (a fine-tuned encoder's: awesome-align's extraction over its folder,
// finetune-job.ts; a BiLSTM's in the worker thread: aligner.ts extraction, its EM counting the gold
// links; the gold of dev and test pairs, which no run trains on, teaches the link decision
// when there is enough of it), keeps the linguists' corrections — every gold link is added with score 1, no
// rejected link is proposed — and stores the result as a model alignment of that model and
// run, each link's confidence as its score, so the review queue ranks pairs by the model's
// uncertainty. With enough held-out gold, the alignment records how reliable its scores
// are there (eval/calibration.ts), and on request stores them calibrated on it — not by
// default: on the neural bench's four cases calibration lowered the ECE in two and raised
// it in two (docs/experiments.md), the same on average, and it ties scores the queue ranks by.
import type { Link } from '../../shared/domain.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import type { AlignedPair } from '../../shared/domain.ts';
import { CancelledError } from '../errors.ts';
import type { Progress } from '../jobs/job-registry.ts';
import { createAlignment, linkInserter, setCalibration } from '../store/alignments.ts';
import { calibrate, fitCalibration, type Sample } from '../eval/calibration.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { getRun } from '../store/training-runs.ts';
import { cancelFlag, type WorkerReport } from './neural-protocol.ts';
import { goldByPair, goldLinks, loadCorpus, type ProjectCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import { FINETUNE_METHOD } from '../../shared/methods.ts';
import { alignWithFolder, FINETUNED_ALIGNER } from './finetune-job.ts';
import { checkpointDir, runDir } from './run-files.ts';
import { runInWorker } from './worker-run.ts';

const key = (s: number, t: number) => s * 0x100000 + t;

/** Model links without the rejected ones, with the gold ones (score 1, the gold's kind) in place. */
function withCorrections(
  links: readonly Link[],
  gold: AlignedPair | undefined,
  rejected: readonly { s: number; t: number }[] | undefined,
): Link[] {
  const out = new Map<number, Link>();
  const no = new Set(rejected?.map((r) => key(r.s, r.t)));
  for (const l of links) if (!no.has(key(l.s, l.t))) out.set(key(l.s, l.t), l);
  for (const [s, t] of gold?.possible ?? []) out.set(key(s, t), { s, t, kind: 'possible', score: 1 });
  for (const [s, t] of gold?.sure ?? []) out.set(key(s, t), { s, t, kind: 'sure', score: 1 });
  return [...out.values()].sort((a, b) => a.s - b.s || a.t - b.t);
}

/** Each held-out pair's model links (before corrections) scored against its gold. */
function heldOutSamples(found: readonly Link[][], gold: readonly (AlignedPair | undefined)[], split: readonly string[]): Sample[][] {
  return found.flatMap((links, k) => {
    const g = gold[k];
    if (!g || split[k] === 'train') return [];
    const held = new Set([...g.sure, ...g.possible].map(([s, t]) => key(s, t)));
    return [links.map((l) => ({ score: l.score ?? 1, correct: held.has(key(l.s, l.t)) }))];
  });
}

interface Found {
  found: Link[][];
  /** how the links were decided (the symmetrisation, or the learned decision) */
  decidedBy: string;
}

/** A BiLSTM checkpoint's links, in the worker thread (train-split gold counted by its EM, held-out gold teaching the link decision). */
async function neuralLinks(
  modelDir: string,
  corpus: ProjectCorpus,
  gold: readonly (AlignedPair | undefined)[],
  options: TrainOptions,
  target: { epoch: number; sym: string },
  run: { progress: Progress; signal: AbortSignal },
): Promise<Found> {
  let found: Link[][] = [];
  let decidedBy = target.sym;
  const onReport = (r: WorkerReport) => {
    if (r.type === 'aligned') run.progress(r.done, r.total, `aligning with epoch ${target.epoch}`);
    else if (r.type === 'linking') run.progress(r.done, r.total, `epoch ${target.epoch}: ${r.phase}`);
    else if (r.type === 'links') [found, decidedBy] = [r.links, r.decidedBy];
  };
  const linksOf = (inTrain: boolean) => gold.map((g, k) => (g && (corpus.split[k] === 'train') === inTrain ? goldLinks(g) : []));
  const request = {
    type: 'align' as const,
    modelDir,
    src: corpus.src,
    tgt: corpus.tgt,
    gold: linksOf(true),
    heldOut: linksOf(false),
    sym: target.sym,
    device: options.device,
    cancel: cancelFlag(),
  };
  if ((await runInWorker(request, onReport, run.signal)) === 'cancelled') throw new CancelledError();
  return { found, decidedBy };
}

/** A fine-tuned encoder checkpoint's links (awesome-align's extraction over the folder). */
async function finetunedLinks(
  modelDir: string,
  corpus: ProjectCorpus,
  options: TrainOptions,
  epoch: number,
  run: { progress: Progress; signal: AbortSignal },
): Promise<Found> {
  const r = await alignWithFolder(modelDir, corpus.src, corpus.tgt, {
    device: options.device,
    onProgress: (done, total) => {
      if (run.signal.aborted) throw new CancelledError();
      run.progress(done, total, `aligning with epoch ${epoch}`);
    },
  });
  return { found: r.links, decidedBy: `${FINETUNED_ALIGNER} layer ${r.layer}` };
}

/** Runs the job; returns a one-line summary. */
export async function realignRun(
  store: ProjectStore,
  target: { runId: number; epoch: number; sym: string; calibrate?: boolean },
  run: { progress: Progress; signal: AbortSignal },
): Promise<string> {
  const db = store.db;
  const row = getRun(db, target.runId);
  const options = JSON.parse(row.config) as TrainOptions;
  const corpus = loadCorpus(db, options.lowercase);
  const modelDir = checkpointDir(runDir(store.path, target.runId), target.epoch);
  const gold = goldByPair(db, corpus.ids);
  let { found, decidedBy } =
    options.method === FINETUNE_METHOD
      ? await finetunedLinks(modelDir, corpus, options, target.epoch, run)
      : await neuralLinks(modelDir, corpus, gold, options, target, run);
  const rejected = rejectedByPair(db, corpus.ids);
  const fitted = fitCalibration(heldOutSamples(found, gold, corpus.split), target.calibrate ?? false);
  if (fitted?.summary.applied) found = found.map((links) => links.map((l) => ({ ...l, score: calibrate(fitted.map, l.score ?? 1) })));
  const name = `${options.method} run ${target.runId} · epoch ${target.epoch} + ${decidedBy}`;
  const count = db.transaction(() => {
    const alignmentId = createAlignment(db, { origin: 'model', name, modelId: row.model_id, runId: target.runId });
    if (fitted) setCalibration(db, alignmentId, fitted.summary);
    const insert = linkInserter(db, alignmentId);
    let n = 0;
    corpus.ids.forEach((id, k) => {
      const links = withCorrections(found[k] ?? [], gold[k], rejected[k]);
      insert(id, links);
      n += links.length;
    });
    return n;
  })();
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
