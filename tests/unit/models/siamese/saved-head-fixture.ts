// A saved siamese head on a saved Bi-Sent2Vec model, both trained on `learnt` pairs of real
// text (32 dimensions, 20 CBOW epochs, 5 head epochs at lr 1e-3) and written as the model
// folders `b2v` and `head` under `dir`: what the app's Mine and Score parallelism jobs load
// when a user names a head folder.
import { join } from 'node:path';
import { trainBisent2vec } from '../../../../src/main/models/bisent2vec/parallel-train.ts';
import { saveBisent2vec } from '../../../../src/main/models/bisent2vec/bisent2vec-folder.ts';
import { type SiameseHead, trainSiameseHead } from '../../../../src/main/models/siamese/head.ts';
import { openSentenceEncoder } from '../../../../src/main/models/siamese/sentence-encoders.ts';
import { saveSiameseHead } from '../../../../src/main/models/siamese/siamese-folder.ts';
import type { RetrievalFigures } from '../../../../src/shared/models-api.ts';
import { SIAMESE_DEFAULTS } from '../../../../src/shared/aligner-defaults.ts';

export async function savedHead(
  dir: string,
  learnt: { src: string[][]; tgt: string[][] },
  retrieval?: RetrievalFigures,
): Promise<{ b2v: string; head: string; weights: SiameseHead }> {
  const { model } = await trainBisent2vec(learnt.src, learnt.tgt, { minCount: 1, dim: 32, epochs: 20 }, { threads: 1 });
  const b2v = join(dir, 'b2v');
  saveBisent2vec(b2v, model);
  const enc = openSentenceEncoder('bisent2vec', b2v);
  const trained = await trainSiameseHead(await enc.embed(0, learnt.src), await enc.embed(1, learnt.tgt), 32, { epochs: 5, lr: 1e-3 });
  const head = join(dir, 'head');
  saveSiameseHead(head, {
    head: trained.head,
    encoder: `bisent2vec:${b2v}`,
    config: { ...SIAMESE_DEFAULTS, epochs: 5, lr: 1e-3 },
    ...(retrieval ? { retrieval } : {}),
  });
  return { b2v, head, weights: trained.head };
}
