// The weights of a Hugging Face encoder folder (model.safetensors, read by nn/model-folder.ts
// as every model folder's) under transformers' BertModel / XLMRobertaModel parameter names, checked against config.json: every tensor the
// graph needs must be there with the shape the config implies, else a one-line error naming
// the file and the tensor. Checkpoints of *ForMaskedLM and similar heads keep the encoder
// under a `bert.` or `roberta.` prefix, which is stripped; the other tensors (heads, pooler)
// are ignored. Half-precision weights are widened to float32 by nn/safetensors.ts. A checkpoint
// sharded by transformers (model.safetensors.index.json naming each tensor's file) reads too.
// An encoder fine-tuned with language embeddings (seed 000 §6.1) keeps them beside, in
// LANGUAGE_FILE, so model.safetensors stays exactly transformers' bare model; they join the
// weights when that file is there.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../errors.ts';
import { hasFolderTensors, readFolderSafetensors, readFolderTensors, WEIGHTS_FILE } from '../../nn/model-folder.ts';
import { Tensor } from '../../nn/tensor.ts';
import type { EncoderConfig } from './hf-config.ts';

export const LANGUAGE_FILE = 'mekong-language-embeddings.safetensors';
/** Seed 000 §6.1's language embeddings [2, hidden] (row 0 the source side, 1 the target side), under this name in LANGUAGE_FILE and in the weights. */
export const LANGUAGE_EMBEDDINGS = 'language_embeddings.weight';

/** Every stored tensor, from the one file or from the shards its index names; `file` names the source in errors. */
export function readStored(dir: string): { stored: Map<string, Tensor>; file: string } {
  if (!hasFolderTensors(dir))
    throw new UserError(`${join(dir, WEIGHTS_FILE)}: missing (an encoder folder needs model.safetensors, or model.onnx to align only)`);
  const { tensors, file } = readFolderTensors(dir);
  return { stored: tensors, file };
}

const PREFIXES = ['', 'bert.', 'roberta.'];

/** Every parameter the encoder graph reads, with its shape under `c` (transformers' layout: Linear weights are [out, in]). */
export function encoderParamShapes(c: EncoderConfig): Map<string, number[]> {
  const D = c.hidden;
  const out = new Map<string, number[]>([
    ['embeddings.word_embeddings.weight', [c.vocabSize, D]],
    ['embeddings.position_embeddings.weight', [c.maxPositions, D]],
    ['embeddings.token_type_embeddings.weight', [c.typeVocab, D]],
    ['embeddings.LayerNorm.weight', [D]],
    ['embeddings.LayerNorm.bias', [D]],
  ]);
  const linear = (name: string, o: number, i: number) => {
    out.set(`${name}.weight`, [o, i]);
    out.set(`${name}.bias`, [o]);
  };
  const norm = (name: string) => {
    out.set(`${name}.weight`, [D]);
    out.set(`${name}.bias`, [D]);
  };
  for (let l = 0; l < c.layers; l++) {
    const p = `encoder.layer.${l}`;
    for (const m of ['query', 'key', 'value']) linear(`${p}.attention.self.${m}`, D, D);
    linear(`${p}.attention.output.dense`, D, D);
    norm(`${p}.attention.output.LayerNorm`);
    linear(`${p}.intermediate.dense`, c.intermediate, D);
    linear(`${p}.output.dense`, D, c.intermediate);
    norm(`${p}.output.LayerNorm`);
  }
  return out;
}

/** The encoder's parameters from `dir`/model.safetensors (or its shards), float32, by their BertModel names. */
export function readEncoderWeights(
  dir: string,
  c: EncoderConfig,
  { stored, file }: { stored: ReadonlyMap<string, Tensor>; file: string } = readStored(dir),
): Map<string, Tensor> {
  const prefix = PREFIXES.find((p) => stored.has(`${p}embeddings.word_embeddings.weight`));
  if (prefix === undefined) throw new UserError(`${file}: no embeddings.word_embeddings.weight (not a BERT or XLM-R checkpoint?)`);
  const out = new Map<string, Tensor>();
  for (const [name, shape] of encoderParamShapes(c)) {
    const t = stored.get(prefix + name);
    if (!t) throw new UserError(`${file}: missing tensor ${prefix + name}`);
    if (t.dims.join() !== shape.join())
      throw new UserError(
        `${file}: tensor ${prefix + name} has shape [${t.dims.join(', ')}] but config.json implies [${shape.join(', ')}]`,
      );
    if (t.type === 'float32') out.set(name, t);
    else if (t.type === 'float64') out.set(name, new Tensor('float32', Float32Array.from(t.data as Float64Array), [...t.dims]));
    else throw new UserError(`${file}: tensor ${prefix + name} is ${t.type}, not a float tensor`);
  }
  const language = join(dir, LANGUAGE_FILE);
  if (existsSync(language)) {
    const t = readFolderSafetensors(dir, LANGUAGE_FILE).get(LANGUAGE_EMBEDDINGS);
    if (!t || t.type !== 'float32' || t.dims.join() !== `2,${c.hidden}`)
      throw new UserError(`${language}: no float32 tensor ${LANGUAGE_EMBEDDINGS} of shape [2, ${c.hidden}]`);
    out.set(LANGUAGE_EMBEDDINGS, t);
  }
  return out;
}
