// A pretrained encoder opened from a local Hugging Face folder, ready to encode sentences:
//   config.json + tokenizer.json + model.safetensors  → our graph (encoder-graph.ts), trainable
//     (or the shards of model.safetensors.index.json)
//   config.json + tokenizer.json + model.onnx         → that ONNX model, inference only
// 'auto' takes the safetensors when there are some, else model.onnx. An ONNX model must expose
// the hidden state asked for as an output named hidden_states.L (as exportEncoderOnnx writes
// them), or last_hidden_state for the last layer (transformers' ONNX exports); its inputs are
// fed by name (input_ids, attention_mask, and position_ids / token_type_ids / language_ids
// when it has them). Each sentence may say which side of a pair it is (0 source, 1 target):
// an encoder fine-tuned with language embeddings reads that; every other ignores it.
// An encoder may also run over weights held in memory that change between runs (a model being
// fine-tuned: HfEncoder.over), read again at every run.
// Sessions open through nn/devices.ts: the chosen provider, with CPU fallback, is logged and
// kept in `device`. Sentences are run in batches of similar length, padded on the right.
// The graph's weights are fed at each run rather than baked in: no slower (docs/experiments.md)
// and no 2 GB protobuf limit on the model.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type ort from 'onnxruntime-node';
import type { DeviceName, DeviceSetting } from '../../nn/devices.ts';
import { openSession } from '../../nn/devices.ts';
import { exportOnnx, hasFolderTensors } from '../../nn/model-folder.ts';
import { Program } from '../../nn/session.ts';
import { Tensor } from '../../nn/tensor.ts';
import { UserError } from '../../errors.ts';
import { checkCancelled, type JobContext, silentContext } from '../../jobs/job-context.ts';
import { buildEncoderGraph, hiddenStateName, INPUT_IDS, ATTENTION_MASK, LANGUAGE_IDS, POSITION_IDS } from './encoder-graph.ts';
import { type EncoderConfig, firstPosition, maxTokens, readEncoderConfig } from './hf-config.ts';
import { readEncoderWeights } from './hf-weights.ts';
import { type EncodedSentence, SubwordTokenizer } from './subword-tokenizer.ts';

export const ONNX_FILE = 'model.onnx';

export type EncoderBackend = 'auto' | 'graph' | 'onnx';

export interface OpenEncoderOptions {
  backend?: EncoderBackend;
  device?: DeviceSetting;
  threads?: number;
  /** receives the line naming the execution provider (default console.info) */
  log?: (line: string) => void;
}

/** Sentences per run. */
const BATCH = 16;

interface Runner {
  run(feeds: Record<string, Tensor>): Promise<Record<string, Tensor>>;
  readonly inputNames: readonly string[];
  release(): Promise<void>;
}

/** Inputs of one batch, padded on the right to its longest sentence, positions numbered as transformers does; `lang` the sentence's side (default 0). */
export function encoderFeeds(
  config: EncoderConfig,
  batch: readonly { ids: readonly number[]; lang?: number }[],
): { feeds: Record<string, Tensor>; T: number } {
  const T = Math.max(1, ...batch.map((s) => s.ids.length));
  const B = batch.length;
  const ids = new BigInt64Array(B * T).fill(BigInt(config.padId));
  const mask = new BigInt64Array(B * T);
  const first = firstPosition(config);
  const roberta = config.family === 'roberta';
  const pos = new BigInt64Array(B * T);
  const lang = new BigInt64Array(B * T);
  batch.forEach((s, b) => {
    if (s.lang) lang.fill(BigInt(s.lang), b * T, (b + 1) * T);
    for (let t = 0; t < T; t++) {
      const real = t < s.ids.length;
      if (real) ids[b * T + t] = BigInt(s.ids[t]);
      mask[b * T + t] = real ? 1n : 0n;
      pos[b * T + t] = BigInt(roberta && !real ? config.padId : first + t);
    }
  });
  const dims = [B, T];
  return {
    feeds: {
      [INPUT_IDS]: new Tensor('int64', ids, dims),
      [ATTENTION_MASK]: new Tensor('int64', mask, dims),
      [POSITION_IDS]: new Tensor('int64', pos, dims),
      token_type_ids: new Tensor('int64', new BigInt64Array(B * T), dims),
      [LANGUAGE_IDS]: new Tensor('int64', lang, dims),
    },
    T,
  };
}

/** Refuses a tokenizer whose ids go beyond the word embeddings' rows. */
export function checkTokenizerFits(tokenizer: SubwordTokenizer, config: EncoderConfig): void {
  const rows = config.vocabSize;
  const max = tokenizer.maxId();
  if (max >= rows)
    throw new UserError(
      `${tokenizer.file}: token id ${max} is beyond the ${rows} rows of embeddings.word_embeddings.weight (vocab_size of config.json): tokenizer and weights do not belong together`,
    );
}

export class HfEncoder {
  private runners = new Map<string, Runner>();
  /** the provider the last session opened on */
  device: DeviceName | null = null;

  private constructor(
    readonly dir: string,
    readonly config: EncoderConfig,
    readonly tokenizer: SubwordTokenizer,
    readonly backend: 'graph' | 'onnx',
    /** the graph's weights, read at every run (null: model.onnx) */
    private readonly weights: (() => ReadonlyMap<string, Tensor>) | null,
    private readonly o: OpenEncoderOptions,
  ) {}

  /** Checks a folder without reading its weights: its config, its tokenizer, and weights or model.onnx present. */
  static check(dir: string): EncoderConfig {
    const config = readEncoderConfig(dir);
    new SubwordTokenizer(dir);
    if (!hasFolderTensors(dir) && !existsSync(join(dir, ONNX_FILE)))
      throw new UserError(`${dir}: no model.safetensors (or its index) and no ${ONNX_FILE}: nothing to load the encoder's weights from`);
    return config;
  }

  /** Reads and checks the folder (nothing is compiled yet). */
  static open(dir: string, o: OpenEncoderOptions = {}): HfEncoder {
    const config = readEncoderConfig(dir);
    const tokenizer = new SubwordTokenizer(dir);
    const want = o.backend ?? 'auto';
    const backend = want === 'auto' ? (hasFolderTensors(dir) || !existsSync(join(dir, ONNX_FILE)) ? 'graph' : 'onnx') : want;
    if (backend === 'onnx' && !existsSync(join(dir, ONNX_FILE))) throw new UserError(`${join(dir, ONNX_FILE)}: missing`);
    const weights = backend === 'graph' ? readEncoderWeights(dir, config) : null;
    checkTokenizerFits(tokenizer, config);
    return new HfEncoder(dir, config, tokenizer, backend, weights && (() => weights), o);
  }

  /** The encoder of `dir`'s config and tokenizer over the weights `weights()` gives at each run (e.g. those of a model being trained). */
  static over(dir: string, weights: () => ReadonlyMap<string, Tensor>, o: OpenEncoderOptions = {}): HfEncoder {
    const config = readEncoderConfig(dir);
    const tokenizer = new SubwordTokenizer(dir);
    checkTokenizerFits(tokenizer, config);
    return new HfEncoder(dir, config, tokenizer, 'graph', weights, o);
  }

  /** Subword form of sentences (our words), cut to the model's positions. */
  encode(sentences: readonly (readonly string[])[]): EncodedSentence[] {
    return sentences.map((s) => this.tokenizer.encodeWords(s, maxTokens(this.config)));
  }

  private checkLayer(layer: number): void {
    if (!Number.isInteger(layer) || layer < 0 || layer > this.config.layers)
      throw new UserError(`layer ${layer} does not exist: ${this.dir} has hidden states 0 (embeddings) to ${this.config.layers}`);
  }

  private async runner(layers: readonly number[]): Promise<Runner> {
    const key = layers.join(',');
    let r = this.runners.get(key);
    if (r) return r;
    if (this.backend === 'graph') {
      const weights = this.weights!;
      const { graph, hidden } = buildEncoderGraph(this.config, weights());
      const outputs = Object.fromEntries(layers.map((l) => [hiddenStateName(l), hidden[l]]));
      const program = await Program.compile(graph, outputs, { device: this.o.device, threads: this.o.threads, log: this.o.log });
      this.device = program.device;
      r = {
        run: (feeds) => program.run({ ...feeds, ...Object.fromEntries(weights()) }),
        inputNames: program.inputNames,
        release: () => program.release(),
      };
    } else {
      const file = join(this.dir, ONNX_FILE);
      const { session, device } = await openSession(new Uint8Array(readFileSync(file)), {
        device: this.o.device,
        threads: this.o.threads,
        log: this.o.log,
      });
      this.device = device;
      for (const l of layers) {
        if (session.outputNames.includes(hiddenStateName(l))) continue;
        if (l === this.config.layers && session.outputNames.includes('last_hidden_state')) continue;
        await session.release();
        throw new UserError(
          `${file}: no output ${hiddenStateName(l)} (it has ${session.outputNames.join(', ')}): export it with every hidden state, or use model.safetensors`,
        );
      }
      const known = new Set([INPUT_IDS, ATTENTION_MASK, POSITION_IDS, 'token_type_ids', LANGUAGE_IDS]);
      const odd = session.inputNames.find((n) => !known.has(n));
      if (odd) {
        await session.release();
        throw new UserError(`${file}: input ${odd} is not one an encoder takes (${[...known].join(', ')})`);
      }
      r = {
        run: async (feeds) => {
          const used = Object.fromEntries(session.inputNames.map((n) => [n, feeds[n]]));
          const out = (await session.run(used)) as Record<string, ort.Tensor>;
          if (!out[hiddenStateName(this.config.layers)] && out.last_hidden_state)
            out[hiddenStateName(this.config.layers)] = out.last_hidden_state;
          return out as Record<string, Tensor>;
        },
        inputNames: session.inputNames,
        release: () => session.release(),
      };
    }
    this.runners.set(key, r);
    return r;
  }

  /**
   * Hidden states `layers` of every sentence: out[k][s] is sentence s's [ids.length × hidden]
   * rows (template tokens included). Progress (sentences done) and cancel after each batch; `languages[s]`
   * sentence s's side of its pair (0 source, 1 target; default 0), for language embeddings.
   */
  async hiddenStates(
    sentences: readonly EncodedSentence[],
    layers: readonly number[],
    ctx: JobContext = silentContext(),
    languages?: readonly number[],
  ): Promise<Float32Array[][]> {
    layers.forEach((l) => this.checkLayer(l));
    const r = await this.runner(layers);
    const D = this.config.hidden;
    const out = layers.map(() => new Array<Float32Array>(sentences.length));
    const order = sentences.map((_, k) => k).sort((a, b) => sentences[a].ids.length - sentences[b].ids.length);
    for (let i = 0; i < order.length; i += BATCH) {
      const idx = order.slice(i, i + BATCH);
      const { feeds, T } = encoderFeeds(
        this.config,
        idx.map((k) => ({ ids: sentences[k].ids, lang: languages?.[k] })),
      );
      const res = await r.run(feeds);
      layers.forEach((l, li) => {
        const data = res[hiddenStateName(l)].data as Float32Array;
        idx.forEach((k, b) => (out[li][k] = data.slice(b * T * D, (b * T + sentences[k].ids.length) * D)));
      });
      checkCancelled(ctx.signal);
      ctx.progress({ done: Math.min(i + BATCH, order.length), total: order.length });
    }
    return out;
  }

  async release(): Promise<void> {
    for (const r of this.runners.values()) await r.release();
    this.runners.clear();
  }
}

/** Writes `dir`'s encoder (from its safetensors) as a standalone ONNX model with every hidden state as an output. */
export function exportEncoderOnnx(dir: string, file = join(dir, ONNX_FILE)): void {
  const config = readEncoderConfig(dir);
  const weights = readEncoderWeights(dir, config);
  const { graph, hidden } = buildEncoderGraph(config, weights);
  const outputs = Object.fromEntries(hidden.map((h, l) => [hiddenStateName(l), h]));
  writeFileSync(file, exportOnnx(graph, outputs, weights));
}
