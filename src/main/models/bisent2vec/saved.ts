// A trained Bi-Sent2Vec model on disk, in the model folder format of nn/model-folder.ts:
// model.safetensors holds U [words, dim] and V [n-grams, dim]; config.json the training
// configuration, the n-gram vocabulary (words, bigrams and character n-grams of each side in
// row order, with their counts and document frequencies, which tf-idf weighting needs) and
// the curation thresholds found on held-out pairs when the model was trained for mining;
// lexicon/ the IBM1 tables of its curation scores (align/saved-model.ts' format), when it has
// them. A model saved before those scores existed loads with lexicalWeight 0 (cosine only).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel, saveModel } from '../../align/saved-model.ts';
import { floatData, type FolderConfig, loadModelFolder, saveModelFolder, Tensor } from '../../nn/index.ts';
import { UserError } from '../../errors.ts';
import type { Bisent2vecConfig, Bisent2vecModel, CurationThresholds } from './train.ts';
import { indexVocab } from './vocab.ts';

const FORMAT = 'mekong-bisent2vec/1';
const MODEL_TYPE = 'mekong-bisent2vec';
const LEXICON_DIR = 'lexicon';

interface SavedMeta extends FolderConfig {
  config: Bisent2vecConfig;
  words: [string[], string[]];
  bigrams: [string[], string[]];
  chars: [string[], string[]];
  charN: number;
  counts: number[];
  df: number[];
  sentences: number;
  thresholds?: CurationThresholds;
}

export function saveBisent2vec(dir: string, m: Bisent2vecModel): void {
  const v = m.index.vocab;
  const meta: SavedMeta = {
    format: FORMAT,
    model_type: MODEL_TYPE,
    config: m.config,
    words: v.words,
    bigrams: v.bigrams,
    chars: v.chars,
    charN: v.charN,
    counts: Array.from(v.counts),
    df: Array.from(v.df),
    sentences: v.sentences,
    ...(m.thresholds ? { thresholds: m.thresholds } : {}),
  };
  const d = m.config.dim;
  const params = new Map([
    ['U', new Tensor('float32', m.U, [m.U.length / d, d])],
    ['V', new Tensor('float32', m.V, [m.V.length / d, d])],
  ]);
  saveModelFolder(dir, meta, params);
  if (m.lexicon) saveModel(join(dir, LEXICON_DIR), m.lexicon);
}

export function loadBisent2vec(dir: string): Bisent2vecModel {
  const { config: meta, params } = loadModelFolder<SavedMeta>(dir, MODEL_TYPE);
  if (meta.format !== FORMAT) throw new UserError(`${dir}: unknown model format ${meta.format}`);
  const index = indexVocab({
    words: meta.words,
    bigrams: meta.bigrams,
    chars: meta.chars,
    charN: meta.charN,
    counts: Float64Array.from(meta.counts),
    df: Float64Array.from(meta.df),
    sentences: meta.sentences,
  });
  const U = params.get('U'),
    V = params.get('V');
  const d = meta.config.dim;
  if (!U || !V || U.dims[0] !== index.wordRows || V.dims[0] !== index.rows || U.dims[1] !== d || V.dims[1] !== d)
    throw new UserError(
      `${dir}: model.safetensors does not match config.json (U and V of ${index.wordRows} and ${index.rows} rows × ${d})`,
    );
  const lexicon = join(dir, LEXICON_DIR);
  return {
    config: { ...meta.config, lexicalWeight: meta.config.lexicalWeight ?? 0 },
    index,
    U: Float32Array.from(floatData(U)),
    V: Float32Array.from(floatData(V)),
    ...(meta.thresholds ? { thresholds: meta.thresholds } : {}),
    ...(existsSync(lexicon) ? { lexicon: loadModel(lexicon) } : {}),
  };
}
