// A trained siamese head on disk, in the model folder format of nn/model-folder.ts:
// model.safetensors holds head.weight [d, d] and head.bias [d] (the training graph's names,
// head.ts); config.json the encoder it was trained on (kind:DIR, sentence-encoders.ts) and the
// training configuration, so the head is applied to vectors of that encoder only.
import { floatData, type FolderConfig, loadModelFolder, saveModelFolder, Tensor } from '../../nn/index.ts';
import { UserError } from '../../errors.ts';
import type { SiameseConfig, SiameseHead } from './head.ts';

const FORMAT = 'mekong-siamese-head/1';
const MODEL_TYPE = 'mekong-siamese-head';

interface SavedMeta extends FolderConfig {
  dim: number;
  encoder: string;
  config: SiameseConfig;
}

export interface SavedHead {
  head: SiameseHead;
  encoder: string;
  config: SiameseConfig;
}

export function saveSiameseHead(dir: string, s: SavedHead): void {
  const d = s.head.dim;
  const meta: SavedMeta = { format: FORMAT, model_type: MODEL_TYPE, dim: d, encoder: s.encoder, config: s.config };
  saveModelFolder(
    dir,
    meta,
    new Map([
      ['head.weight', new Tensor('float32', s.head.weight, [d, d])],
      ['head.bias', new Tensor('float32', s.head.bias, [d])],
    ]),
  );
}

export function loadSiameseHead(dir: string): SavedHead {
  const { config: meta, params } = loadModelFolder<SavedMeta>(dir, MODEL_TYPE);
  if (meta.format !== FORMAT) throw new UserError(`${dir}: unknown model format ${meta.format}`);
  const W = params.get('head.weight'),
    b = params.get('head.bias');
  const d = meta.dim;
  if (!W || !b || W.dims[0] !== d || W.dims[1] !== d || b.dims[0] !== d)
    throw new UserError(`${dir}: model.safetensors does not match config.json (head.weight ${d} × ${d}, head.bias ${d})`);
  return {
    head: { dim: d, weight: Float32Array.from(floatData(W)), bias: Float32Array.from(floatData(b)) },
    encoder: meta.encoder,
    config: meta.config,
  };
}
