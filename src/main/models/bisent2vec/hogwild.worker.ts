// Worker thread entry of Hogwild training (hogwild.ts): receives one shard of the sentence
// pairs and the model whose U and V live in SharedArrayBuffers, runs the ordinary training
// loop (train.ts) on the shard, updating the shared rows without locks. Messages out:
// { type: 'progress', done, total, message } … then { type: 'done', stats }.
import { parentPort } from 'node:worker_threads';
import { type Bisent2vecConfig, trainModel } from './train.ts';
import { indexVocab, type NgramVocab } from './vocab.ts';

export interface HogwildShard {
  config: Bisent2vecConfig;
  vocab: NgramVocab;
  U: Float32Array;
  V: Float32Array;
  src: string[][];
  tgt: string[][];
}

parentPort!.once('message', (shard: HogwildShard) => {
  const model = { config: shard.config, index: indexVocab(shard.vocab), U: shard.U, V: shard.V };
  const stats = trainModel(model, shard.src, shard.tgt, {
    progress: (done, total, message) => parentPort!.postMessage({ type: 'progress', done, total, message }),
  });
  parentPort!.postMessage({ type: 'done', stats });
});
