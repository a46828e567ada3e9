// A trained siamese head on disk, a model folder of the siamese-head family
// (nn/model-folder.ts): model.safetensors holds head.weight [d, d] and head.bias [d] (the
// training graph's names, head.ts); config.json the encoder it was trained on (kind:DIR,
// sentence-encoders.ts, its folder an absolute path), for a Hugging Face encoder the pooling
// and layer of the vectors it was trained on, and the training configuration, so the head is
// applied to the vectors it was trained on (headed-encoder.ts), and the test retrieval `mekong
// siamese` measured after training, when it did. Folders of the layout before (nn/legacy-model-folders.ts) still load.
import { type FolderFamily, folderTensor, loadModelFolder, saveModelFolder } from '../../nn/model-folder.ts';
import { floatData, Tensor } from '../../nn/tensor.ts';
import type { RetrievalFigures } from '../../../shared/models-api.ts';
import type { SiameseConfig, SiameseHead } from './head.ts';
import type { SentenceReading } from './sentence-encoders.ts';

export const SIAMESE_FOLDER: FolderFamily = { family: 'siamese-head', version: 2, files: [] };

interface SavedConfig {
  dim: number;
  encoder: string;
  /** absent for the families without pooling or layer, and in folders saved before they were recorded */
  vectors?: SentenceReading;
  config: SiameseConfig;
  retrieval?: RetrievalFigures;
}

export interface SavedHead {
  head: SiameseHead;
  encoder: string;
  vectors?: SentenceReading;
  config: SiameseConfig;
  /** the head's retrieval on the test pairs of its training run */
  retrieval?: RetrievalFigures;
}

export function saveSiameseHead(dir: string, s: SavedHead): void {
  const d = s.head.dim;
  const config: SavedConfig = {
    dim: d,
    encoder: s.encoder,
    ...(s.vectors ? { vectors: s.vectors } : {}),
    config: s.config,
    ...(s.retrieval ? { retrieval: s.retrieval } : {}),
  };
  const tensors = new Map([
    ['head.weight', new Tensor('float32', s.head.weight, [d, d])],
    ['head.bias', new Tensor('float32', s.head.bias, [d])],
  ]);
  saveModelFolder(dir, SIAMESE_FOLDER, { config, tensors });
}

export function loadSiameseHead(dir: string): SavedHead {
  const folder = loadModelFolder<SavedConfig>(dir, SIAMESE_FOLDER);
  const { dim: d, encoder, vectors, config, retrieval } = folder.config;
  const W = folderTensor(folder, 'head.weight', 'float32', [d, d]);
  const b = folderTensor(folder, 'head.bias', 'float32', [d]);
  return {
    head: { dim: d, weight: Float32Array.from(floatData(W)), bias: Float32Array.from(floatData(b)) },
    encoder,
    vectors,
    config,
    retrieval,
  };
}
