// A statistical model (statistical-model.ts) saved as a model folder of the statistical family
// (nn/model-folder.ts), and loaded back.
//
// Folder: config.json (method, lowercase, each direction's scalar parameters: kind, p0, …),
// vocab.src / vocab.tgt (one word per line, line n = id n), model.safetensors with
// pairs.src / pairs.tgt (int32 source and target id of each lexical pair), {fwd,rev}.t
// (float32 t per pair), {fwd,rev}.null (float32 tNull per obs word id: target ids for fwd,
// source ids for rev) and {fwd,rev}.params.<key> (float64: a parameter that is a table, such
// as the HMM's jump distribution). Folders of the layout before (model.json + *.f32) still load.
import { type FolderFamily, folderTensor, folderText, loadModelFolder, saveModelFolder } from '../nn/model-folder.ts';
import { Tensor } from '../nn/tensor.ts';
import type { ModelParams } from './directional-model.ts';
import type { DirectionResult, SavedModel } from './statistical-model.ts';

export const STATISTICAL_FOLDER: FolderFamily = { family: 'statistical', version: 2, files: ['vocab.src', 'vocab.tgt'] };

interface SavedConfig {
  method: string;
  lowercase: boolean;
  fwd: ModelParams;
  rev: ModelParams;
}

const DIRECTIONS = ['fwd', 'rev'] as const;

export function saveModel(dir: string, m: SavedModel): void {
  const n = m.pairSrc.length;
  const tensors = new Map<string, Tensor>([
    ['pairs.src', new Tensor('int32', m.pairSrc, [n])],
    ['pairs.tgt', new Tensor('int32', m.pairTgt, [n])],
  ]);
  const config: SavedConfig = { method: m.method, lowercase: m.lowercase, fwd: { kind: '' }, rev: { kind: '' } };
  for (const d of DIRECTIONS) {
    tensors.set(`${d}.t`, new Tensor('float32', m[d].lex.t, [m[d].lex.t.length]));
    tensors.set(`${d}.null`, new Tensor('float32', m[d].lex.tNull, [m[d].lex.tNull.length]));
    const scalars: ModelParams = { kind: m[d].params.kind };
    for (const [key, v] of Object.entries(m[d].params)) {
      if (Array.isArray(v)) tensors.set(`${d}.params.${key}`, new Tensor('float64', Float64Array.from(v as number[]), [v.length]));
      else scalars[key] = v;
    }
    config[d] = scalars;
  }
  const files = new Map([
    ['vocab.src', m.srcVocab.join('\n')],
    ['vocab.tgt', m.tgtVocab.join('\n')],
  ]);
  saveModelFolder(dir, STATISTICAL_FOLDER, { config, tensors, files });
}

export function loadModel(dir: string): SavedModel {
  const folder = loadModelFolder<SavedConfig>(dir, STATISTICAL_FOLDER);
  const { config } = folder;
  const [srcVocab, tgtVocab] = [folderText(folder, 'vocab.src').split('\n'), folderText(folder, 'vocab.tgt').split('\n')];
  const n = folder.tensors.get('pairs.src')?.dims[0] ?? 0;
  const ints = (name: string) => folderTensor(folder, name, 'int32', [n]).data as Int32Array;
  const floats = (name: string, size: number) => folderTensor(folder, name, 'float32', [size]).data as Float32Array;
  const direction = (d: 'fwd' | 'rev'): DirectionResult => {
    const params: ModelParams = { ...config[d] };
    for (const [name, t] of folder.tensors) {
      if (!name.startsWith(`${d}.params.`)) continue;
      params[name.slice(`${d}.params.`.length)] = Array.from(folderTensor(folder, name, 'float64', [t.dims[0]]).data as Float64Array);
    }
    return { params, lex: { t: floats(`${d}.t`, n), tNull: floats(`${d}.null`, d === 'fwd' ? tgtVocab.length : srcVocab.length) } };
  };
  return {
    method: config.method,
    lowercase: config.lowercase,
    srcVocab,
    tgtVocab,
    pairSrc: ints('pairs.src'),
    pairTgt: ints('pairs.tgt'),
    fwd: direction('fwd'),
    rev: direction('rev'),
  };
}
