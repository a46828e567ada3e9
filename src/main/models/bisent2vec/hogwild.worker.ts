// Worker thread of Hogwild training (parallel-train.ts): holds one shard of the sentence
// pairs and the model whose U and V live in SharedArrayBuffers, and trains its shard a chunk
// at a time (cbow-train.ts PairsTrainer), updating the shared rows without locks, as the fit loop
// on the main thread asks, by the job protocol (jobs/serve-worker.ts): the shard first,
// then 'epoch' (a new shuffle), 'chunk' (answered with its loss and terms) and 'stats'.
import { serveWorker } from '../../jobs/serve-worker.ts';
import { type Bisent2vecConfig, PairsTrainer } from './cbow-train.ts';
import { indexVocab, type NgramVocab } from './ngram-vocab.ts';

export interface HogwildShard {
  config: Bisent2vecConfig;
  vocab: NgramVocab;
  U: Float32Array;
  V: Float32Array;
  src: string[][];
  tgt: string[][];
}

export type HogwildRequest = ({ type: 'shard' } & HogwildShard) | { type: 'epoch' } | { type: 'chunk'; index: number } | { type: 'stats' };
export type HogwildReply = { type: 'chunk'; loss: number; terms: number } | { type: 'stats'; loss: number; steps: number } | null;

let trainer: PairsTrainer | undefined;
serveWorker<HogwildRequest, HogwildReply>((m) => {
  if (m.type === 'shard') {
    trainer = new PairsTrainer({ config: m.config, index: indexVocab(m.vocab), U: m.U, V: m.V }, m.src, m.tgt);
    return null;
  }
  if (!trainer) throw new Error('hogwild worker: no shard yet');
  if (m.type === 'epoch') {
    trainer.beginEpoch();
    return null;
  }
  if (m.type === 'chunk') return { type: 'chunk', ...trainer.chunk(m.index) };
  return { type: 'stats', ...trainer.stats() };
});
