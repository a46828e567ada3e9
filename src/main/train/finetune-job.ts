// The Models page's fine-tuning run (issue 17: seed 000's TR / AWP / WTR and seed 001's RTL
// on the project's pretrained encoder, models/transformer/finetune.ts). The training set is
// the BiLSTM runs' (project-data.ts, not lowercased: encoders keep case): gold links of
// train-split pairs (and the pseudo alignment's and attached dictionaries' links where asked)
// supervise their pairs, rejected links are negatives, pairs without any learn from the
// encoder's own links of probability ≥ 0.9; dev/test pairs with gold are the evaluation
// set. Each checkpoint is the fine-tuned encoder as a Hugging Face folder in the run's
// epoch-N folder, scored on the evaluation set (AER, precision, recall of awesome-align's
// extraction over it) as the BiLSTM's checkpoints are, so the Models page draws the same
// curves; re-aligning with a checkpoint aligns the project with that folder (realign-job.ts).
import type { Link } from '../../shared/domain.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import type { AerScore } from '../eval/aer.ts';
import { scoreAer } from '../eval/aer.ts';
import type { Progress } from '../jobs/job-registry.ts';
import { alignWithEncoder } from '../models/transformer/encoder-aligner.ts';
import { FINETUNE_DEFAULTS, finetuneEncoder } from '../models/transformer/finetune.ts';
import { defaultAlignLayer } from '../models/transformer/hf-config.ts';
import { HfEncoder } from '../models/transformer/hf-encoder.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { recordCheckpoint, setRunSetup } from '../store/training-runs.ts';
import { projectEncoderDir } from './encoder-align-job.ts';
import { trainingSet, type TrainingSet } from './project-data.ts';
import { bestDevAer, recordedRun } from './recorded-run.ts';
import { checkpointDir, runDir } from './run-files.ts';

/** The extraction a fine-tuned checkpoint aligns with (seed 000 and awesome-align align this way after fine-tuning). */
export const FINETUNED_ALIGNER = 'awesome' as const;

/** Links of `src`/`tgt` pairs with the encoder in folder `dir` (awesome-align's extraction at the default layer). */
export async function alignWithFolder(
  dir: string,
  src: readonly string[][],
  tgt: readonly string[][],
  o: { device?: TrainOptions['device']; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ links: Link[][]; layer: number; device: string | null }> {
  const encoder = HfEncoder.open(dir, { device: o.device });
  try {
    const layer = defaultAlignLayer(encoder.config);
    const links = await alignWithEncoder(encoder, FINETUNED_ALIGNER, src, tgt, { layer, onProgress: o.onProgress });
    return { links, layer, device: encoder.device };
  } finally {
    await encoder.release();
  }
}

/** AER / precision / recall of checkpoint `dir` on the evaluation pairs, or null without any. */
async function scoreCheckpoint(dir: string, set: TrainingSet, device: TrainOptions['device']): Promise<AerScore | null> {
  if (!set.evalIndex.length) return null;
  const { src, tgt } = set.corpus;
  const { links } = await alignWithFolder(
    dir,
    set.evalIndex.map((k) => src[k]),
    set.evalIndex.map((k) => tgt[k]),
    { device },
  );
  return scoreAer(
    set.evalGold,
    links.map((ls) => ls.map((l): [number, number] => [l.s, l.t])),
  );
}

/** Runs the job for a run created by createModelRun; returns a one-line summary. */
export async function finetuneRun(
  store: ProjectStore,
  runId: number,
  options: TrainOptions,
  run: { progress: Progress; signal: AbortSignal },
): Promise<string> {
  return recordedRun(store, runId, run.signal, async (metrics) => {
    const db = store.db;
    const folder = runDir(store.path, runId);
    const encoder = projectEncoderDir(store);
    const o: TrainOptions = { ...options, lowercase: false, epochs: options.epochs ?? FINETUNE_DEFAULTS.epochs };
    const epochs = o.epochs!;
    const set = trainingSet(db, o);
    let stats = set.stats;
    setRunSetup(db, runId, o, stats);
    const checkpoint = async (epoch: number, step: number, dir: string) => {
      run.progress(step, step, `epoch ${epoch}: scoring the checkpoint on ${set.evalIndex.length} held-out pairs`);
      const score = await scoreCheckpoint(dir, set, o.device);
      if (score) for (const name of ['aer', 'precision', 'recall'] as const) metrics.add(name, step, score[name]);
      metrics.flush();
      recordCheckpoint(db, runId, epoch, step);
    };
    const f = o.finetune ?? {};
    const result = await finetuneEncoder(
      {
        encoder,
        src: set.corpus.src,
        tgt: set.corpus.tgt,
        gold: set.supervision.map((ls) => ls?.map((l): Link => ({ s: l.s, t: l.t, kind: 'sure', score: null })) ?? null),
        rejected: set.rejected.map((ls) => ls ?? null),
        out: checkpointDir(folder, epochs),
        objectives: f.objectives,
        alpha: f.alpha,
        beta: f.beta,
        gamma: f.gamma,
        delta: f.delta,
        batch: f.batch,
        languageEmbeddings: f.languageEmbeddings,
        epochs,
        lr: o.lr,
        threshold: o.threshold,
        device: o.device,
        onStep: (step, loss) => metrics.add('loss', step, loss),
        onEpoch: async (e, save) => {
          metrics.add('epoch_loss', e.step, e.loss);
          if (e.epoch < epochs && e.epoch % o.checkpointEvery === 0) {
            const dir = checkpointDir(folder, e.epoch);
            save(dir);
            await checkpoint(e.epoch, e.step, dir);
          }
        },
      },
      run.progress,
      run.signal,
    );
    stats = { ...stats, device: { requested: o.device, used: result.device } };
    setRunSetup(db, runId, o, stats);
    await checkpoint(epochs, result.steps, result.out);
    return `fine-tuned ${encoder} (run ${runId}): ${epochs} epochs, ${result.steps} steps on ${result.device}; ${result.pairs.gold} pairs with gold or pseudo links, ${result.pairs.model} with the encoder's own links${bestDevAer(db, runId)}`;
  });
}
