// A trained neural aligner on disk, in the model folder format of nn/model-folder.ts:
// model.safetensors (parameters) and config.json (format, model_type, configuration,
// vocabularies as word lists in id order with each word's subword ids, the BPE model, the
// link decision learned from held-out gold links if there was one). Loading rebuilds the
// same NeuralModel, so a saved model aligns new text (a word it lacks is the unknown word
// plus its subwords) or seeds the Models page's re-alignment. Folders saved before this
// format (model.json beside model.safetensors) still load.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FolderConfig, loadModelFolder, readSafetensors, saveModelFolder, type Tensor } from '../../nn/index.ts';
import { UserError } from '../../errors.ts';
import { modelDims, type NeuralConfig, type NeuralModel } from './train.ts';
import { decisionMismatch, type LinkClassifier } from './link-classifier.ts';
import { type NeuralVocab, RESERVED, type SideVocab, type SubwordModel } from './vocab.ts';

const FORMAT = 'mekong-neural-aligner/2';
const LEGACY_FORMAT = 'mekong-neural-aligner/1';
const MODEL_TYPE = 'mekong-bilstm';

interface SavedSide {
  words: string[];
  subwords: number[][];
}

interface SavedMeta extends FolderConfig {
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
  // The device is where this machine ran it, not a property of the model.
  const { device: _device, ...config } = m.config;
  const meta: SavedMeta = {
    format: FORMAT,
    model_type: MODEL_TYPE,
    config,
    src: saveSide(m.vocab.src),
    tgt: saveSide(m.vocab.tgt),
    subwordCount: m.vocab.subwordCount,
    maxSubwords: m.vocab.maxSubwords,
    subwordModel: m.vocab.subwordModel,
    decision: m.decision,
  };
  saveModelFolder(dir, meta, m.params);
}

/** A folder saved before the model folder format: model.json holds what config.json does now. */
function readLegacy(dir: string): { config: SavedMeta; params: Map<string, Tensor> } | null {
  const file = join(dir, 'model.json');
  if (!existsSync(file) || existsSync(join(dir, 'config.json'))) return null;
  let meta: SavedMeta;
  try {
    meta = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UserError(`${dir}: not a saved neural aligner (${(err as Error).message})`);
  }
  if (meta.format !== LEGACY_FORMAT) throw new UserError(`${dir}: unknown model format ${meta.format}`);
  return { config: meta, params: readSafetensors(join(dir, 'model.safetensors')).tensors };
}

export function loadNeuralModel(dir: string): NeuralModel {
  const { config: meta, params } = readLegacy(dir) ?? loadModelFolder<SavedMeta>(dir, MODEL_TYPE);
  if (meta.format !== FORMAT && meta.format !== LEGACY_FORMAT) throw new UserError(`${dir}: unknown model format ${meta.format}`);
  const mismatch = meta.decision && decisionMismatch(meta.decision);
  if (mismatch) throw new UserError(`${dir}: ${mismatch}; align again with gold links to learn it anew`);
  const vocab: NeuralVocab = {
    src: loadSide(meta.src),
    tgt: loadSide(meta.tgt),
    subwordCount: meta.subwordCount,
    maxSubwords: meta.maxSubwords,
    ...(meta.subwordModel ? { subwordModel: meta.subwordModel } : {}),
  };
  return { config: meta.config, vocab, dims: modelDims(vocab, meta.config.dim), params, decision: meta.decision };
}
