// The one save format of Mekong's trained models, Hugging Face style: a folder with
//   config.json            { format, model_type, …the model family's own fields }
//   model.safetensors      the parameters by name
//   optimizer.safetensors  AdamW's moments m.<name>, v.<name> and the step (only when the
//                          training is to be resumed exactly)
// Model families (models/bilstm/saved.ts) put what rebuilds their model (configuration,
// vocabulary, learned decisions) in config.json. Also: the forward graph exported as a
// standalone ONNX model with the weights baked in.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import type { Graph, Value } from './graph.ts';
import { toModelProto } from './onnx/serialize.ts';
import { readSafetensors, writeSafetensors } from './safetensors.ts';
import type { Tensor } from './tensor.ts';
import type { TrainState } from './trainer.ts';

/** What config.json must say: the file format and which model family reads the rest. */
export interface FolderConfig {
  format: string;
  model_type: string;
}

/** Writes a model folder; with `optimizer`, its moments and step too (a resumable checkpoint). */
export function saveModelFolder(dir: string, config: FolderConfig, params: ReadonlyMap<string, Tensor>, optimizer?: TrainState): void {
  mkdirSync(dir, { recursive: true });
  writeSafetensors(join(dir, 'model.safetensors'), params, { format: config.format });
  if (optimizer) {
    const moments = new Map<string, Tensor>();
    for (const [n, t] of optimizer.m) moments.set(`m.${n}`, t);
    for (const [n, t] of optimizer.v) moments.set(`v.${n}`, t);
    writeSafetensors(join(dir, 'optimizer.safetensors'), moments, { step: String(optimizer.step) });
  }
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config) + '\n');
}

/** Reads a model folder written by saveModelFolder; `modelType` names the family expected. */
export function loadModelFolder<C extends FolderConfig>(
  dir: string,
  modelType: string,
): { config: C; params: Map<string, Tensor>; optimizer: TrainState | null } {
  const file = join(dir, 'config.json');
  let config: C;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as C;
  } catch (err) {
    throw new UserError(`${file}: not a model folder's config (${(err as Error).message.split('\n')[0]})`);
  }
  if (config.model_type !== modelType) throw new UserError(`${file}: a ${config.model_type ?? 'unknown'} model, not ${modelType}`);
  const params = readSafetensors(join(dir, 'model.safetensors')).tensors;
  let optimizer: TrainState | null = null;
  try {
    const { tensors, metadata } = readSafetensors(join(dir, 'optimizer.safetensors'));
    optimizer = { step: Number(metadata.step ?? 0), params, m: new Map(), v: new Map() };
    for (const [k, t] of tensors) (k.startsWith('m.') ? optimizer.m : optimizer.v).set(k.slice(2), t);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return { config, params, optimizer };
}

/** The forward graph as a standalone ONNX model: parameters become initializers. */
export function exportOnnx(graph: Graph, outputs: Readonly<Record<string, Value>>, params: ReadonlyMap<string, Tensor>): Uint8Array {
  return toModelProto(graph, outputs, { bake: params, producer: 'mekong-nn export' });
}
