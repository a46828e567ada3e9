// Readers of the model folders saved before the one model folder (model-folder.ts), each
// turning an old folder into the layout of today in memory, so a family's loader has one path:
//   statistical  mekong-align-model/1     model.json (method, lowercase, per-direction
//                parameters), vocab.src / vocab.tgt, pairs.i32 (source id, target id per
//                lexical pair, little-endian int32), {fwd,rev}.t.f32 and {fwd,rev}.null.f32
//   bilstm       mekong-neural-aligner/1  model.json + model.safetensors
//                mekong-neural-aligner/2  config.json + model.safetensors; both with the
//                vocabularies and the BPE model inside the JSON beside the configuration
//   bisent2vec   mekong-bisent2vec/1      config.json (configuration, n-gram vocabulary with
//                counts and document frequencies, thresholds) + model.safetensors (U, V), and
//                lexicon/ in the statistical layout it had then (read by that family's loader)
//   siamese-head mekong-siamese-head/1    config.json (dim, encoder, configuration) + model.safetensors
// Nothing writes these layouts any more.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import { readSafetensors } from './safetensors.ts';
import { Tensor } from './tensor.ts';

/** An old folder in today's layout: config.json's fields with the header, tensors, the family's files. */
export interface LegacyFolder {
  config: Record<string, unknown> & { format: 'mekong-model-folder'; family: string; version: number };
  tensors: Map<string, Tensor>;
  tensorFile: string;
  files: Map<string, Uint8Array>;
}

/** The family each old format string belonged to. */
const FORMATS: Readonly<Record<string, { family: string; version: number }>> = {
  'mekong-align-model/1': { family: 'statistical', version: 1 },
  'mekong-neural-aligner/1': { family: 'bilstm', version: 1 },
  'mekong-neural-aligner/2': { family: 'bilstm', version: 2 },
  'mekong-bisent2vec/1': { family: 'bisent2vec', version: 1 },
  'mekong-siamese-head/1': { family: 'siamese-head', version: 1 },
};

/** The family of an old config.json or model.json (`raw`), if it is one. */
function legacyFamily(raw: Record<string, unknown> | null): string | undefined {
  const format = String(raw?.format);
  return Object.hasOwn(FORMATS, format) ? FORMATS[format].family : undefined;
}

/**
 * `dir` read as an old folder of `family` (`raw`: its config.json, null when it has none); null
 * when it is no old folder; an old folder of another family is refused naming its file.
 */
export function readLegacyFolder(dir: string, family: string, raw: Record<string, unknown> | null): LegacyFolder | null {
  const meta = raw ?? readModelJson(dir);
  const found = legacyFamily(meta);
  if (!meta || !found) return null;
  if (found !== family) throw new UserError(`${join(dir, raw ? 'config.json' : 'model.json')}: a ${found} model, not ${family}`);
  const header = { format: 'mekong-model-folder' as const, family, version: FORMATS[String(meta.format)].version };
  const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  const tensorFile = join(dir, 'model.safetensors');
  const weights = () => {
    if (!existsSync(tensorFile)) throw new UserError(`${tensorFile}: missing`);
    return readSafetensors(tensorFile).tensors;
  };
  switch (family) {
    case 'statistical':
      return statistical(dir, meta, header);
    case 'bilstm': {
      const { config, decision, src, tgt, subwordCount, maxSubwords, subwordModel } = meta;
      return {
        config: { ...header, config, ...(decision ? { decision } : {}) },
        tensors: weights(),
        tensorFile,
        files: new Map([['vocab.json', json({ src, tgt, subwordCount, maxSubwords, ...(subwordModel ? { subwordModel } : {}) })]]),
      };
    }
    case 'bisent2vec': {
      const { config, thresholds, words, bigrams, chars, charN, counts, df, sentences } = meta;
      return {
        config: { ...header, config, ...(thresholds ? { thresholds } : {}) },
        tensors: weights(),
        tensorFile,
        files: new Map([['vocab.json', json({ words, bigrams, chars, charN, counts, df, sentences })]]),
      };
    }
    default: {
      const { dim, encoder, config } = meta;
      return { config: { ...header, dim, encoder, config }, tensors: weights(), tensorFile, files: new Map() };
    }
  }
}

/** model.json of a folder without config.json (statistical /1, bilstm /1); null when there is none. */
function readModelJson(dir: string): Record<string, unknown> | null {
  const file = join(dir, 'model.json');
  if (!existsSync(file)) return null;
  let meta: Record<string, unknown>;
  try {
    meta = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new UserError(`${file}: not a saved model (${(err as Error).message.split('\n')[0]})`);
  }
  if (!legacyFamily(meta)) throw new UserError(`${file}: unknown model format ${String(meta.format)}`);
  return meta;
}

/** The statistical layout /1: parameters' number arrays become float64 tensors <dir>.params.<key>, the tables tensors. */
function statistical(dir: string, meta: Record<string, unknown>, header: LegacyFolder['config']): LegacyFolder {
  const read = (name: string, bytesPer: number) => {
    const file = join(dir, name);
    if (!existsSync(file)) throw new UserError(`${file}: missing`);
    const buf = readFileSync(file);
    if (buf.byteLength % bytesPer) throw new UserError(`${file}: ${buf.byteLength} bytes is not a whole number of values: truncated?`);
    return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  };
  const pairs = new Int32Array(read('pairs.i32', 8));
  const n = pairs.length / 2;
  const src = new Int32Array(n),
    tgt = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    src[p] = pairs[2 * p];
    tgt[p] = pairs[2 * p + 1];
  }
  const tensors = new Map<string, Tensor>([
    ['pairs.src', new Tensor('int32', src, [n])],
    ['pairs.tgt', new Tensor('int32', tgt, [n])],
  ]);
  const config: Record<string, unknown> = { ...header, method: meta.method, lowercase: meta.lowercase };
  for (const d of ['fwd', 'rev'] as const) {
    for (const table of ['t', 'null']) {
      const values = new Float32Array(read(`${d}.${table}.f32`, 4));
      tensors.set(`${d}.${table}`, new Tensor('float32', values, [values.length]));
    }
    const scalars: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(meta[d] as Record<string, unknown>)) {
      if (Array.isArray(v)) tensors.set(`${d}.params.${key}`, new Tensor('float64', Float64Array.from(v as number[]), [v.length]));
      else scalars[key] = v;
    }
    config[d] = scalars;
  }
  const vocab = (name: string) => {
    const file = join(dir, name);
    if (!existsSync(file)) throw new UserError(`${file}: missing`);
    return new Uint8Array(readFileSync(file));
  };
  return {
    config: config as LegacyFolder['config'],
    tensors,
    tensorFile: `${dir} (pairs.i32, *.f32)`,
    files: new Map([
      ['vocab.src', vocab('vocab.src')],
      ['vocab.tgt', vocab('vocab.tgt')],
    ]),
  };
}
