// A trained neural aligner on disk: a folder with model.safetensors (parameters) and
// model.json (format tag, configuration, vocabularies as word lists in id order with each
// word's subword ids, the BPE model, the link decision learned from held-out gold links if
// there was one). Loading rebuilds the same NeuralModel, so a saved model aligns new text
// (a word it lacks is the unknown word plus its subwords) or seeds the Models page's
// re-alignment.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSafetensors, writeSafetensors } from '../../nn/index.ts';
import { UserError } from '../../errors.ts';
import { modelDims, type NeuralConfig, type NeuralModel } from './train.ts';
import { decisionMismatch, type LinkClassifier } from './link-classifier.ts';
import { type NeuralVocab, RESERVED, type SideVocab, type SubwordModel } from './vocab.ts';

const FORMAT = 'mekong-neural-aligner/1';

interface SavedSide {
  words: string[];
  subwords: number[][];
}

interface SavedMeta {
  format: string;
  config: NeuralConfig;
  src: SavedSide;
  tgt: SavedSide;
  subwordCount: number;
  maxSubwords: number;
  /** the BPE model (absent in models saved before it was kept) */
  subwordModel?: SubwordModel;
  decision?: LinkClassifier;
}

const saveSide = (v: SideVocab): SavedSide => ({ words: [...v.ids.keys()], subwords: v.subwords });

function loadSide(s: SavedSide): SideVocab {
  return { ids: new Map(s.words.map((w, i) => [w, i + RESERVED])), subwords: s.subwords };
}

export function saveNeuralModel(dir: string, m: NeuralModel): void {
  mkdirSync(dir, { recursive: true });
  // The device is where this machine ran it, not a property of the model.
  const { device: _device, ...config } = m.config;
  const meta: SavedMeta = {
    format: FORMAT, config, src: saveSide(m.vocab.src), tgt: saveSide(m.vocab.tgt), subwordCount: m.vocab.subwordCount, maxSubwords: m.vocab.maxSubwords,
    subwordModel: m.vocab.subwordModel, decision: m.decision,
  };
  writeFileSync(join(dir, 'model.json'), JSON.stringify(meta));
  writeSafetensors(join(dir, 'model.safetensors'), m.params, { format: FORMAT });
}

export function loadNeuralModel(dir: string): NeuralModel {
  let meta: SavedMeta;
  try {
    meta = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
  } catch (err) {
    throw new UserError(`${dir}: not a saved neural aligner (${(err as Error).message})`);
  }
  if (meta.format !== FORMAT) throw new UserError(`${dir}: unknown model format ${meta.format}`);
  const mismatch = meta.decision && decisionMismatch(meta.decision);
  if (mismatch) throw new UserError(`${dir}: ${mismatch}; align again with gold links to learn it anew`);
  const vocab: NeuralVocab = {
    src: loadSide(meta.src), tgt: loadSide(meta.tgt), subwordCount: meta.subwordCount, maxSubwords: meta.maxSubwords,
    ...(meta.subwordModel ? { subwordModel: meta.subwordModel } : {}),
  };
  const { tensors } = readSafetensors(join(dir, 'model.safetensors'));
  return { config: meta.config, vocab, dims: modelDims(vocab, meta.config.dim), params: tensors, decision: meta.decision };
}
