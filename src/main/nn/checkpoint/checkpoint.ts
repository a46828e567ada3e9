// Training checkpoints and model export. A checkpoint is a folder:
//   model.safetensors      parameters by name
//   optimizer.safetensors  AdamW moments as m.<name>, v.<name>
//   config.json            { format, step, model (caller's config), optimizer }
// Export writes the forward graph as a standalone ONNX model with the weights baked in.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Graph, Value } from '../graph.ts';
import { toModelProto } from '../onnx/serialize.ts';
import type { TrainState } from '../runtime/trainer.ts';
import type { Tensor } from '../tensor.ts';
import { readSafetensors, writeSafetensors } from './safetensors.ts';

const FORMAT = 'mekong-nn-checkpoint/1';

export interface CheckpointConfig<M> {
  model: M;
  optimizer?: unknown;
}

export function saveCheckpoint<M>(dir: string, state: TrainState, config: CheckpointConfig<M>): void {
  mkdirSync(dir, { recursive: true });
  writeSafetensors(join(dir, 'model.safetensors'), state.params, { format: FORMAT });
  const opt = new Map<string, Tensor>();
  for (const [n, t] of state.m) opt.set(`m.${n}`, t);
  for (const [n, t] of state.v) opt.set(`v.${n}`, t);
  writeSafetensors(join(dir, 'optimizer.safetensors'), opt, { step: String(state.step) });
  const json = { format: FORMAT, step: state.step, ...config };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(json, null, 2) + '\n');
}

export function loadCheckpoint<M>(dir: string): { state: TrainState; config: CheckpointConfig<M> } {
  const cfgPath = join(dir, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8')) as CheckpointConfig<M> & { format: string; step: number };
  if (cfg.format !== FORMAT) throw new Error(`${cfgPath}: not a ${FORMAT} checkpoint (format ${cfg.format})`);
  const params = readSafetensors(join(dir, 'model.safetensors')).tensors;
  const opt = readSafetensors(join(dir, 'optimizer.safetensors')).tensors;
  const state: TrainState = { step: cfg.step, params, m: new Map(), v: new Map() };
  for (const [k, t] of opt) (k.startsWith('m.') ? state.m : state.v).set(k.slice(2), t);
  return { state, config: { model: cfg.model, optimizer: cfg.optimizer } };
}

/** The forward graph as a standalone ONNX model: parameters become initializers. */
export function exportOnnx(graph: Graph, outputs: Readonly<Record<string, Value>>, params: ReadonlyMap<string, Tensor>): Uint8Array {
  return toModelProto(graph, outputs, { bake: params, producer: 'mekong-nn export' });
}
