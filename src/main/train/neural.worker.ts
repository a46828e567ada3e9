// Worker thread of the Models page's BiLSTM jobs (ONNX sessions block their thread): given
// one task (neural-protocol.ts) it either trains a run — reading the training set from the
// project itself (bilstm-run-setup.ts), from scratch or continuing from a checkpoint (whose
// vocabulary gains the data's new words, their count reported), in the fit loop
// (train-and-self-train.ts, train/fit-loop.ts), reporting every step, saving a checkpoint
// every `checkpointEvery` epochs and at the last, scoring each checkpoint on the evaluation
// pairs (aligner.ts extraction over those pairs, their gold unseen, gdfa), then, if asked,
// self-training (the trained model aligns the training pairs and trains on, its confident
// links as pseudo-labels) — or aligns pairs with a saved checkpoint (the project's gold
// links counted by the extraction's EM; the link decision learned from the gold of the
// pairs the model never trained on, when there is enough of it). Progress, cancel and the
// outcome travel by the job protocol (jobs/serve-worker.ts).
import { DEFAULT_SYM } from '../../shared/aligner-defaults.ts';
import type { Link } from '../../shared/domain.ts';
import { extractLinks, learnLinkDecision } from '../models/bilstm/aligner.ts';
import { loadNeuralModel, saveNeuralModel } from '../models/bilstm/bilstm-folder.ts';
import type { NeuralModel } from '../models/bilstm/bilstm-train.ts';
import { scoreAer } from '../eval/aer.ts';
import { withMessage } from '../jobs/job-context.ts';
import { serveWorker, type WorkerContext } from '../jobs/serve-worker.ts';
import type { AlignRequest, NeuralAlignResult, NeuralReport, NeuralTask, TrainRequest } from './neural-protocol.ts';
import type { FitScore } from './fit-loop.ts';
import { Embedder } from '../models/bilstm/embedder.ts';
import { checkpointDir } from './run-files.ts';
import { grownVocab } from '../models/bilstm/vocab-growth.ts';
import { trainAndSelfTrain } from '../models/bilstm/train-and-self-train.ts';
import { ProjectStore } from '../store/project-store.ts';
import { bilstmRunSetup, type BilstmRunSetup } from './bilstm-run-setup.ts';

type Ctx = WorkerContext<NeuralReport>;

async function score(embedder: Embedder, model: NeuralModel, ev: BilstmRunSetup['eval']): Promise<FitScore | null> {
  if (!ev.src.length) return null;
  const links = extractLinks(ev.src, ev.tgt, await embedder.embed(model, ev.src, ev.tgt), { sym: DEFAULT_SYM });
  const s = scoreAer(
    ev.gold,
    links.map((ls) => ls.map((l): [number, number] => [l.s, l.t])),
  );
  return { value: s.aer, metrics: { aer: s.aer, precision: s.precision, recall: s.recall } };
}

/** The run's setup, read from the project on a connection of this thread's own (reported to the job before it trains). */
function setupOf(r: TrainRequest, ctx: Ctx): BilstmRunSetup {
  ctx.progress({ done: 0, total: 0, message: 'reading the pairs' });
  const store = ProjectStore.openReader(r.projectPath);
  try {
    const setup = bilstmRunSetup(store, r.options, r.withoutSelfTraining);
    ctx.report({ type: 'setup', options: setup.options, config: setup.config, stats: setup.stats });
    return setup;
  } finally {
    store.close();
  }
}

/** Trains the run's epochs, then any self-training (train-and-self-train.ts); checkpoints and steps are numbered over both. */
async function train(r: TrainRequest, ctx: Ctx): Promise<null> {
  const setup = setupOf(r, ctx);
  const start = r.startDir ? loadNeuralModel(r.startDir) : undefined;
  const embedder = new Embedder();
  try {
    if (start) {
      const grown = grownVocab(start.vocab, setup.data.src, setup.data.tgt);
      ctx.report({
        type: 'vocabulary',
        src: grown.src.ids.size - start.vocab.src.ids.size,
        tgt: grown.tgt.ids.size - start.vocab.tgt.ids.size,
      });
    }
    await trainAndSelfTrain(
      { data: setup.data, config: setup.config, selfTrain: setup.selfTrain, heldOut: setup.selfTrain?.skip, start },
      {
        ctx,
        embedder,
        checkpoints: {
          every: setup.options.checkpointEvery,
          save: (epoch, model) => saveNeuralModel(checkpointDir(r.runFolder, epoch), model),
          score: (_, model) => score(embedder, model, setup.eval),
        },
        onEvent: (e) => ctx.report(e),
        onPlan: (p) => ctx.report({ type: 'plan', ...p }),
        onDevice: (use) => ctx.report({ type: 'device', ...use }),
      },
    );
    return null;
  } finally {
    await embedder.release();
  }
}

async function align(r: AlignRequest, ctx: Ctx): Promise<NeuralAlignResult> {
  const saved = loadNeuralModel(r.modelDir);
  const model = { ...saved, config: { ...saved.config, device: r.device } };
  const todo = r.src.flatMap((s, k) => (s.length && r.tgt[k].length ? [k] : []));
  const embedder = new Embedder();
  try {
    ctx.progress({ done: 0, total: todo.length, message: 'embedding the pairs' });
    const e = await embedder.embed(
      model,
      todo.map((k) => r.src[k]),
      todo.map((k) => r.tgt[k]),
      withMessage(ctx, 'embedding the pairs'),
    );
    const [src, tgt] = [todo.map((k) => r.src[k]), todo.map((k) => r.tgt[k])];
    const known = { sym: r.sym, gold: todo.map((k) => r.gold[k]), heldOut: todo.map((k) => r.heldOut[k]), ctx };
    const decision = model.decision ?? learnLinkDecision(src, tgt, e, known) ?? undefined;
    const found = extractLinks(src, tgt, e, { ...known, decision });
    const links: Link[][] = r.src.map(() => []);
    todo.forEach((k, n) => (links[k] = found[n]));
    return { links, decidedBy: decision ? 'learned decision' : r.sym };
  } finally {
    await embedder.release();
  }
}

serveWorker<NeuralTask, NeuralAlignResult | null, NeuralReport>((t, ctx) => (t.type === 'train' ? train(t, ctx) : align(t, ctx)));
