// A trained neural aligner on disk, a model folder of the bilstm family (nn/model-folder.ts):
// model.safetensors (parameters), vocab.json (the vocabularies as word lists in id order with
// each word's subword ids, the BPE model) and config.json (the configuration, the link
// decision learned from held-out gold links if there was one). Loading rebuilds the same
// NeuralModel, so a saved model aligns new text (a word it lacks is the unknown word plus its
// subwords), continues training or seeds the Models page's re-alignment. Folders of the
// layouts before (nn/legacy-model-folders.ts) still load.
import { type FolderFamily, folderJson, folderTensor, loadModelFolder, saveModelFolder } from '../../nn/model-folder.ts';
import { UserError } from '../../errors.ts';
import { modelDims, type NeuralConfig, type NeuralModel } from './bilstm-train.ts';
import { decisionMismatch, type LinkClassifier } from './link-classifier.ts';
import { type NeuralVocab, RESERVED, type SideVocab, type SubwordModel } from './vocab-batches.ts';

export const BILSTM_FOLDER: FolderFamily = { family: 'bilstm', version: 3, files: ['vocab.json'] };

interface SavedSide {
  words: string[];
  subwords: number[][];
}

interface SavedConfig {
  config: NeuralConfig;
  decision?: LinkClassifier;
}

interface SavedVocab {
  src: SavedSide;
  tgt: SavedSide;
  subwordCount: number;
  maxSubwords: number;
  /** the BPE model (absent in models saved before it was kept) */
  subwordModel?: SubwordModel;
}

const saveSide = (v: SideVocab): SavedSide => ({ words: [...v.ids.keys()], subwords: v.subwords });

function loadSide(s: SavedSide): SideVocab {
  return { ids: new Map(s.words.map((w, i) => [w, i + RESERVED])), subwords: s.subwords };
}

export function saveNeuralModel(dir: string, m: NeuralModel): void {
  // The device is where this machine ran it, not a property of the model.
  const { device: _device, ...config } = m.config;
  const vocab: SavedVocab = {
    src: saveSide(m.vocab.src),
    tgt: saveSide(m.vocab.tgt),
    subwordCount: m.vocab.subwordCount,
    maxSubwords: m.vocab.maxSubwords,
    ...(m.vocab.subwordModel ? { subwordModel: m.vocab.subwordModel } : {}),
  };
  const saved: SavedConfig = { config: config as NeuralConfig, ...(m.decision ? { decision: m.decision } : {}) };
  saveModelFolder(dir, BILSTM_FOLDER, { config: saved, tensors: m.params, files: new Map([['vocab.json', JSON.stringify(vocab)]]) });
}

export function loadNeuralModel(dir: string): NeuralModel {
  const folder = loadModelFolder<SavedConfig>(dir, BILSTM_FOLDER);
  const { config, decision } = folder.config;
  const mismatch = decision && decisionMismatch(decision);
  if (mismatch) throw new UserError(`${dir}: ${mismatch}; align again with gold links to learn it anew`);
  const saved = folderJson<SavedVocab>(folder, 'vocab.json');
  const vocab: NeuralVocab = {
    src: loadSide(saved.src),
    tgt: loadSide(saved.tgt),
    subwordCount: saved.subwordCount,
    maxSubwords: saved.maxSubwords,
    ...(saved.subwordModel ? { subwordModel: saved.subwordModel } : {}),
  };
  const dims = modelDims(vocab, config.dim);
  // The tables whose size the vocabularies fix: a vocab.json from another save is refused here.
  folderTensor(folder, 'emb.s.table', 'float32', [dims.srcVocab, dims.dim]);
  folderTensor(folder, 'emb.t.table', 'float32', [dims.tgtVocab, dims.dim]);
  folderTensor(folder, 'emb.sub.table', 'float32', [dims.subwords, dims.dim]);
  return { config, vocab, dims, params: folder.tensors, decision };
}
