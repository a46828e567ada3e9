// Worker thread of the Models page's jobs (ONNX sessions block their thread): given one
// request (neural-protocol.ts) it either trains a run, from scratch or continuing from a
// checkpoint (whose vocabulary gains the data's new words, their count reported) —
// reporting every step, saving a checkpoint every `checkpointEvery` epochs and at the last,
// scoring each checkpoint on the evaluation pairs (aligner.ts extraction over those pairs,
// their gold unseen, gdfa), then, if asked, self-training (the trained model aligns the
// training pairs and trains on, its confident links as pseudo-labels) — or aligns pairs
// with a saved checkpoint (the project's gold links counted by the extraction's EM; the link
// decision learned from the gold of the pairs the model never trained on, when there is
// enough of it). It ends with one 'done', 'cancelled' or 'error' report.
import { parentPort } from 'node:worker_threads';
import type { Link } from '../../shared/domain.ts';
import { extractLinks, learnLinkDecision } from '../models/bilstm/aligner.ts';
import { loadNeuralModel, saveNeuralModel } from '../models/bilstm/saved.ts';
import { makeBatches, type NeuralConfig, type NeuralModel, type TrainData, trainNeural } from '../models/bilstm/train.ts';
import { type AerScore, scoreAer } from '../eval/aer.ts';
import { Rng } from '../nn/index.ts';
import { type AlignRequest, isCancelled, type TrainRequest, type WorkerReport, type WorkerRequest } from './neural-protocol.ts';
import { Embedder } from '../models/bilstm/embedder.ts';
import { checkpointDir, writeAtomically } from './run-files.ts';
import { grownVocab } from '../models/bilstm/vocab-growth.ts';
import { pseudoLabelled } from '../models/bilstm/method.ts';

const post = (r: WorkerReport) => parentPort!.postMessage(r);

async function score(embedder: Embedder, model: NeuralModel, ev: TrainRequest['eval']): Promise<AerScore | null> {
  if (!ev.src.length) return null;
  const links = extractLinks(ev.src, ev.tgt, await embedder.embed(model, ev.src, ev.tgt), { sym: 'gdfa' });
  return scoreAer(
    ev.gold,
    links.map((ls) => ls.map((l): [number, number] => [l.s, l.t])),
  );
}

/** Trains the run's epochs, then any self-training; checkpoints are numbered on across both. */
async function train(r: TrainRequest): Promise<'done' | 'cancelled'> {
  const c = r.config;
  const start = r.startDir ? loadNeuralModel(r.startDir) : undefined;
  const abort = new AbortController();
  const embedder = new Embedder();
  const stopIfCancelled = () => isCancelled(r.cancel) && abort.abort();
  let steps = 0;
  /** One phase: `config.epochs` epochs on `data` from `from`, its epochs numbered after `firstEpoch`. */
  const phase = (data: TrainData, config: NeuralConfig, firstEpoch: number, from?: NeuralModel) => {
    post({ type: 'plan', stepsPerEpoch: makeBatches(data, config, new Rng(config.seed)).length, epochs: config.epochs, firstEpoch });
    return trainNeural(
      data,
      config,
      {
        signal: abort.signal,
        onDevice: (use) => post({ type: 'device', ...use }),
        onStep: (_, loss) => {
          post({ type: 'step', step: ++steps, loss });
          stopIfCancelled();
        },
        onEpoch: async (e, loss, model) => {
          const epoch = firstEpoch + e + 1;
          const saved = (e + 1) % r.checkpointEvery === 0 || e + 1 === config.epochs;
          const recorded = firstEpoch ? { ...model, config: { ...model.config, epochs: firstEpoch, selfTrainEpochs: e + 1 } } : model;
          if (saved) writeAtomically(checkpointDir(r.runFolder, epoch), (tmp) => saveNeuralModel(tmp, recorded));
          const s = saved && !isCancelled(r.cancel) ? await score(embedder, model, r.eval) : null;
          post({ type: 'epoch', epoch, step: steps, loss, saved, score: s });
          stopIfCancelled();
        },
      },
      from,
    );
  };
  // the flag is also read between the session builds of the first steps, which can hold the thread for seconds before the next step
  const poll = setInterval(stopIfCancelled, 100);
  try {
    if (start) {
      const grown = grownVocab(start.vocab, r.data.src, r.data.tgt);
      post({ type: 'vocabulary', src: grown.src.ids.size - start.vocab.src.ids.size, tgt: grown.tgt.ids.size - start.vocab.tgt.ids.size });
    }
    const trained = await phase(r.data, c, 0, start);
    if (r.selfTrain) {
      const data = await pseudoLabelled(embedder, trained, r.data, r.selfTrain, (done, total, what) => {
        stopIfCancelled();
        if (abort.signal.aborted) throw new Error('cancelled');
        post({ type: 'linking', done, total, phase: what });
      });
      await phase(data, r.selfTrain.config, c.epochs, trained);
    }
    return 'done';
  } catch (err) {
    if (abort.signal.aborted) return 'cancelled';
    throw err;
  } finally {
    clearInterval(poll);
    await embedder.release();
  }
}

async function align(r: AlignRequest): Promise<'done' | 'cancelled'> {
  const saved = loadNeuralModel(r.modelDir);
  const model = { ...saved, config: { ...saved.config, device: r.device } };
  const todo = r.src.flatMap((s, k) => (s.length && r.tgt[k].length ? [k] : []));
  const embedder = new Embedder();
  const cancelled = new Error('cancelled');
  try {
    post({ type: 'aligned', done: 0, total: todo.length });
    const e = await embedder.embed(
      model,
      todo.map((k) => r.src[k]),
      todo.map((k) => r.tgt[k]),
      (done) => {
        if (isCancelled(r.cancel)) throw cancelled;
        post({ type: 'aligned', done, total: todo.length });
      },
    );
    const [src, tgt] = [todo.map((k) => r.src[k]), todo.map((k) => r.tgt[k])];
    const onProgress = (done: number, total: number, phase: string) => {
      if (isCancelled(r.cancel)) throw cancelled;
      post({ type: 'linking', done, total, phase });
    };
    const known = { sym: r.sym, gold: todo.map((k) => r.gold[k]), heldOut: todo.map((k) => r.heldOut[k]), onProgress };
    const decision = model.decision ?? learnLinkDecision(src, tgt, e, known) ?? undefined;
    const found = extractLinks(src, tgt, e, { ...known, decision });
    const links: Link[][] = r.src.map(() => []);
    todo.forEach((k, n) => (links[k] = found[n]));
    post({ type: 'links', links, decidedBy: decision ? 'learned decision' : r.sym });
    return 'done';
  } catch (err) {
    if (err === cancelled) return 'cancelled';
    throw err;
  } finally {
    await embedder.release();
  }
}

parentPort!.once('message', (r: WorkerRequest) => {
  (r.type === 'train' ? train(r) : align(r)).then(
    (outcome) => post({ type: outcome }),
    (err: unknown) => post({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
  );
});
