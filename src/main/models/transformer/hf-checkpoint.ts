// A fine-tuned encoder saved in the Hugging Face layout (the encoder family's model folder,
// written by nn/model-folder.ts like every family's, atomically), so the folder opens unchanged in
// transformers (BertModel / XLMRobertaModel.from_pretrained), transformers.js and our own
// hf-encoder.ts: config.json (the source's, architectures set to the bare model), the
// tokenizer files copied, model.safetensors with exactly the bare model's tensor names and
// shapes (encoderParamShapes plus the pooler, which BertModel and XLMRobertaModel carry:
// copied from the source when it has one, else initialised as transformers does, N(0, 0.02)
// and bias 0 — the seeds read the first token before the pooler, so it is not trained), and
// mekong-finetune.json recording how the weights were made. Language embeddings (seed 000
// §6.1), which no transformers model has, go to a file of their own beside it (LANGUAGE_FILE):
// transformers opens the folder without them, our encoder with them.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../../errors.ts';
import { normalInit, Rng } from '../../nn/init.ts';
import { readFolderConfig, writeModelFolder } from '../../nn/model-folder.ts';
import { encodeSafetensors } from '../../nn/safetensors.ts';
import { constantInit } from '../../nn/init.ts';
import type { Tensor } from '../../nn/tensor.ts';
import type { EncoderConfig } from './hf-config.ts';
import { encoderParamShapes, LANGUAGE_EMBEDDINGS, LANGUAGE_FILE } from './hf-weights.ts';
import { TOKENIZER_FILE } from './subword-tokenizer.ts';

export const FINETUNE_FILE = 'mekong-finetune.json';

/** Tokenizer files a Hugging Face folder may have beside tokenizer.json (copied when present). */
const TOKENIZER_EXTRAS = ['tokenizer_config.json', 'special_tokens_map.json', 'sentencepiece.bpe.model', 'vocab.txt'];

/** transformers' bare-model class of each model_type we read. */
const ARCHITECTURE: Readonly<Record<string, string>> = { bert: 'BertModel', 'xlm-roberta': 'XLMRobertaModel', roberta: 'RobertaModel' };

export const POOLER_NAMES = ['pooler.dense.weight', 'pooler.dense.bias'];

/** The tensor names and shapes of transformers' bare model for `c` (what model.safetensors holds). */
export function bareModelShapes(c: EncoderConfig): Map<string, number[]> {
  const out = encoderParamShapes(c);
  out.set('pooler.dense.weight', [c.hidden, c.hidden]);
  out.set('pooler.dense.bias', [c.hidden]);
  return out;
}

/** Refuses an output folder that is the source or holds anything but a previous fine-tuning's files (checked before training). */
export function checkOutputFolder(out: string, source: string): void {
  const same = existsSync(out) && realpathSync(out) === realpathSync(source);
  if (same || resolve(out) === resolve(source)) throw new UserError(`${out}: is the encoder folder itself; give another --out`);
  if (!existsSync(out)) return;
  const files = readdirSync(out);
  if (files.length && !files.includes(FINETUNE_FILE))
    throw new UserError(`${out}: not empty and not a previous fine-tuning's folder; give a new or empty folder`);
}

/** The pooler: the source's (`stored`, prefix already stripped) or transformers' initialisation. */
export function poolerTensors(c: EncoderConfig, stored: ReadonlyMap<string, Tensor>, seed = 1): Map<string, Tensor> {
  const w = stored.get('pooler.dense.weight'),
    b = stored.get('pooler.dense.bias');
  if (w?.dims.join() === `${c.hidden},${c.hidden}` && b?.dims.join() === `${c.hidden}`)
    return new Map([
      ['pooler.dense.weight', w],
      ['pooler.dense.bias', b],
    ]);
  return new Map([
    ['pooler.dense.weight', normalInit(new Rng(seed), [c.hidden, c.hidden], 0.02)],
    ['pooler.dense.bias', constantInit([c.hidden], 0)],
  ]);
}

/** Writes the folder `out` from the source folder `source` and the trained `params` (encoder names, and LANGUAGE_EMBEDDINGS when trained with them). */
export function saveHfEncoder(
  out: string,
  source: string,
  c: EncoderConfig,
  params: ReadonlyMap<string, Tensor>,
  pooler: ReadonlyMap<string, Tensor>,
  record: object,
): void {
  checkOutputFolder(out, source);
  const config = readFolderConfig(source);
  config.architectures = [ARCHITECTURE[c.modelType] ?? 'BertModel'];
  const files = new Map<string, string | Uint8Array>();
  for (const f of [TOKENIZER_FILE, ...TOKENIZER_EXTRAS]) if (existsSync(join(source, f))) files.set(f, readFileSync(join(source, f)));
  const tensors = new Map<string, Tensor>();
  for (const [name, shape] of bareModelShapes(c)) {
    const t = params.get(name) ?? pooler.get(name);
    if (!t || t.dims.join() !== shape.join()) throw new Error(`saveHfEncoder: ${name} missing or not [${shape.join(', ')}]`);
    tensors.set(name, t);
  }
  const language = params.get(LANGUAGE_EMBEDDINGS);
  if (language) files.set(LANGUAGE_FILE, encodeSafetensors(new Map([[LANGUAGE_EMBEDDINGS, language]]), { format: 'pt' }));
  files.set(FINETUNE_FILE, JSON.stringify(record, null, 2) + '\n');
  writeModelFolder(out, { config, tensors, metadata: { format: 'pt' }, files });
}
