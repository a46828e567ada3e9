// A trained Bi-Sent2Vec model on disk, a model folder of the bisent2vec family
// (nn/model-folder.ts): model.safetensors holds U [words, dim] and V [n-grams, dim];
// vocab.json the n-gram vocabulary (words, bigrams and character n-grams of each side in row
// order, with their counts and document frequencies, which tf-idf weighting needs);
// config.json the training configuration and the curation thresholds found on held-out pairs
// when the model was trained for mining; lexicon/ the IBM1 tables of its curation scores (a
// folder of the statistical family, align/saved-model.ts), when it has them. A model saved
// before those scores existed loads with lexicalWeight 0 (cosine only); folders of the layout
// before (nn/legacy-model-folders.ts) still load.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel, saveModel } from '../../align/saved-model.ts';
import { type FolderFamily, folderJson, folderTensor, loadModelFolder, saveModelFolder } from '../../nn/model-folder.ts';
import { floatData, Tensor } from '../../nn/tensor.ts';
import type { Bisent2vecConfig, Bisent2vecModel, CurationThresholds } from './cbow-train.ts';
import { indexVocab } from './ngram-vocab.ts';

export const BISENT2VEC_FOLDER: FolderFamily = { family: 'bisent2vec', version: 2, files: ['vocab.json'] };
const LEXICON_DIR = 'lexicon';

interface SavedConfig {
  config: Bisent2vecConfig;
  thresholds?: CurationThresholds;
}

interface SavedVocab {
  words: [string[], string[]];
  bigrams: [string[], string[]];
  chars: [string[], string[]];
  charN: number;
  counts: number[];
  df: number[];
  sentences: number;
}

export function saveBisent2vec(dir: string, m: Bisent2vecModel): void {
  const v = m.index.vocab;
  const vocab: SavedVocab = {
    words: v.words,
    bigrams: v.bigrams,
    chars: v.chars,
    charN: v.charN,
    counts: Array.from(v.counts),
    df: Array.from(v.df),
    sentences: v.sentences,
  };
  const d = m.config.dim;
  const tensors = new Map([
    ['U', new Tensor('float32', m.U, [m.U.length / d, d])],
    ['V', new Tensor('float32', m.V, [m.V.length / d, d])],
  ]);
  const config: SavedConfig = { config: m.config, ...(m.thresholds ? { thresholds: m.thresholds } : {}) };
  // The lexicon goes into the same temporary folder, so the whole model is replaced at once.
  saveModelFolder(dir, BISENT2VEC_FOLDER, { config, tensors, files: new Map([['vocab.json', JSON.stringify(vocab)]]) }, (tmp) => {
    if (m.lexicon) saveModel(join(tmp, LEXICON_DIR), m.lexicon);
  });
}

export function loadBisent2vec(dir: string): Bisent2vecModel {
  const folder = loadModelFolder<SavedConfig>(dir, BISENT2VEC_FOLDER);
  const { config, thresholds } = folder.config;
  const v = folderJson<SavedVocab>(folder, 'vocab.json');
  const index = indexVocab({ ...v, counts: Float64Array.from(v.counts), df: Float64Array.from(v.df) });
  const d = config.dim;
  const U = folderTensor(folder, 'U', 'float32', [index.wordRows, d]);
  const V = folderTensor(folder, 'V', 'float32', [index.rows, d]);
  const lexicon = join(dir, LEXICON_DIR);
  return {
    config: { ...config, lexicalWeight: config.lexicalWeight ?? 0 },
    index,
    U: Float32Array.from(floatData(U)),
    V: Float32Array.from(floatData(V)),
    ...(thresholds ? { thresholds } : {}),
    ...(existsSync(lexicon) ? { lexicon: loadModel(lexicon) } : {}),
  };
}
