// One BiLSTM training run, as the CLI (method.ts runNeuralMethod) and the Models page's
// worker (train/neural.worker.ts) both make it: the training's epochs on the supervised
// pairs, then, when asked, self-training — the trained model aligns the training pairs
// (pseudoLabelled: its embeddings, the extraction's EM, gdfa) and trains on from
// where it stands, its links scoring at least the threshold supervising the pairs without
// any. The held-out pairs (held-out.ts: the one rule for which gold evaluates rather than
// trains) get no supervision in either phase and no pseudo-labels. Both phases run in the fit
// loop (train/fit-loop.ts); their steps, epochs and checkpoints are numbered over the run, the
// self-training's after the training's, and the progress bar's end counts both.
import type { DeviceUse } from '../../../shared/device-settings.ts';
import type { Link } from '../../../shared/domain.ts';
import { defaultEpochs } from '../../../shared/epochs.ts';
import { checkCancelled, type JobContext, silentContext, withMessage } from '../../jobs/job-context.ts';
import type { Checkpoints, FitEvent } from '../../train/fit-loop.ts';
import { extractLinks } from './aligner.ts';
import { Embedder } from './embedder.ts';
import { DEFAULT_CONFIG, type NeuralConfig, type NeuralModel, stepsPerEpoch, type TrainData, trainNeural } from './bilstm-train.ts';

export interface TrainAndSelfTrainRun {
  /** the pairs and their supervision (none for held-out pairs) */
  data: TrainData;
  config: Partial<NeuralConfig>;
  /** self-training after the training: its configuration (its epochs) and the confidence its pseudo-labels need */
  selfTrain?: { config: Partial<NeuralConfig>; threshold: number };
  /** indices of the held-out pairs (held-out.ts): never pseudo-labelled */
  heldOut?: readonly number[];
  /** a model to continue from (bilstm-train.ts trainNeural) */
  start?: NeuralModel;
}

export interface TrainAndSelfTrainHooks {
  ctx?: JobContext;
  /** checkpoints of both phases, epochs numbered over the run; a self-training checkpoint's config records the training's epochs and its own */
  checkpoints?: Checkpoints<NeuralModel>;
  /** the fit loop's events, steps and epochs numbered over the run */
  onEvent?: (e: FitEvent) => void | Promise<void>;
  /** before each phase: its steps per epoch and epochs, and the epochs before it (0 for the training) */
  onPlan?: (p: { stepsPerEpoch: number; epochs: number; firstEpoch: number }) => void;
  onDevice?: (use: DeviceUse) => void;
  /** the embedder that pseudo-labels the pairs (a caller scoring checkpoints shares its own); default: one made and released here */
  embedder?: Embedder;
}

/** The model as a self-training checkpoint records it: the training's epochs, then `selfTrainEpochs` of self-training. */
function recorded(model: NeuralModel, epochs: number, selfTrainEpochs: number): NeuralModel {
  return { ...model, config: { ...model.config, epochs, selfTrainEpochs } };
}

/** Trains, then self-trains if asked; returns the last model (its config records both phases' epochs). */
export async function trainAndSelfTrain(run: TrainAndSelfTrainRun, hooks: TrainAndSelfTrainHooks = {}): Promise<NeuralModel> {
  const ctx = hooks.ctx ?? silentContext();
  const embedder = hooks.embedder ?? new Embedder();
  const first: NeuralConfig = { ...DEFAULT_CONFIG, epochs: defaultEpochs(run.data.src.length), ...run.config };
  const selfTrainEpochs = run.selfTrain?.config.epochs ?? 0;
  let steps = 0;
  /** One phase: `config.epochs` epochs on `data` from `from`, numbered after `firstEpoch` epochs. */
  const phase = (data: TrainData, config: NeuralConfig, firstEpoch: number, from?: NeuralModel) => {
    // a cancel raised while the pairs were pseudo-labelled (the extraction's last steps are synchronous) plans no phase
    checkCancelled(ctx.signal);
    const perEpoch = stepsPerEpoch(data, config);
    const firstStep = steps;
    // the bar's end: this phase's steps, plus the self-training's estimated from the training's steps per epoch until it starts
    const runSteps = firstStep + perEpoch * config.epochs + (firstEpoch ? 0 : perEpoch * selfTrainEpochs);
    const label = firstEpoch ? 'self-training epoch' : 'epoch';
    hooks.onPlan?.({ stepsPerEpoch: perEpoch, epochs: config.epochs, firstEpoch });
    ctx.progress({ done: firstStep, total: runSteps, message: `${label} 1/${config.epochs} · building the model` });
    const saving = hooks.checkpoints;
    return trainNeural(
      data,
      config,
      {
        ctx,
        onDevice: hooks.onDevice,
        checkpoints: saving && {
          every: saving.every,
          save: (e, model) => saving.save(firstEpoch + e, firstEpoch ? recorded(model, firstEpoch, e) : model),
          score: (e, model) => saving.score?.(firstEpoch + e, model) ?? null,
        },
        onEvent: (e) => {
          steps = firstStep + e.step;
          return hooks.onEvent?.({ ...e, epoch: firstEpoch + e.epoch, step: steps });
        },
        phase: { label, firstStep, runSteps },
      },
      from,
    );
  };
  try {
    const trained = await phase(run.data, first, 0, run.start);
    if (!run.selfTrain) return trained;
    const data = await pseudoLabelled(embedder, trained, run.data, { threshold: run.selfTrain.threshold, skip: run.heldOut ?? [] }, ctx);
    const again = await phase(data, { ...DEFAULT_CONFIG, ...run.selfTrain.config, epochs: selfTrainEpochs }, first.epochs, trained);
    return recorded(again, first.epochs, selfTrainEpochs);
  } finally {
    if (!hooks.embedder) await embedder.release();
  }
}

/**
 * Self-training's pseudo-labels: the trained model aligns the training pairs — its
 * embeddings, then the extraction's EM (which counts the pairs' known links) and gdfa — and
 * its links at or above the threshold supervise the pairs without any. Held-out pairs
 * (`skip`) are left out: their scores must stay a measure of pairs the model never learned
 * links of. Progress names each step ("self-training: EM 3/5").
 */
export async function pseudoLabelled(
  embedder: Embedder,
  model: NeuralModel,
  data: TrainData,
  o: { threshold: number; skip: readonly number[] },
  ctx: JobContext = silentContext(),
): Promise<TrainData> {
  const skip = new Set(o.skip);
  const todo = data.src.flatMap((s, k) => (s.length && data.tgt[k].length && !skip.has(k) ? [k] : []));
  const [src, tgt] = [todo.map((k) => data.src[k]), todo.map((k) => data.tgt[k])];
  // each step's progress as "self-training: <step> done/total", the step named here or by the extraction (EM, linking)
  const named = (step?: string) => withMessage(ctx, (p) => `self-training: ${step ?? p.message} ${p.done}/${p.total}`);
  const e = await embedder.embed(model, src, tgt, named('embedding the pairs'));
  const found = extractLinks(src, tgt, e, { gold: todo.map((k) => data.gold?.[k]), ctx: named() });
  const links: Link[][] = data.src.map(() => []);
  todo.forEach((k, n) => (links[k] = found[n]));
  return {
    ...data,
    gold: data.src.map((_, k) => (data.gold?.[k]?.length ? data.gold[k] : links[k].filter((l) => (l.score ?? 1) >= o.threshold))),
  };
}
