// The BertModel forward pass (BERT, LaBSE, XLM-R, RoBERTa: post-LayerNorm encoders with
// absolute positions) in our graph builder, with every hidden state as an output, so the same
// graph serves alignment (one layer, the rest pruned when compiled), export and training.
// Math, for ids, positions [B, T] and mask m [B, T] (1 = token, 0 = padding):
//   h₀ = LN(E_word[ids] + E_pos[positions] + E_type[0] (+ E_lang[languages]))
//   a  = LN(h + MHA(h; m)·Woᵀ + bo)          (Q, K, V = h·Wqᵀ + bq, …; nn/blocks/attention.ts)
//   hₗ = LN(a + act(a·W₁ᵀ + b₁)·W₂ᵀ + b₂)      act = GELU (erf) or ReLU, as config.json says
// Parameters keep transformers' names and [out, in] layout (hf-weights.ts), so a trained model
// saves back into the same names. Position ids are an input: the caller numbers them as
// transformers does (hf-config.ts firstPosition; padding at padding_idx for XLM-R).
// E_lang is seed 000 §6.1's optional language embedding (row 0 the pair's source side, row 1
// its target side): present only in encoders fine-tuned with it, which then take language ids.
// A training graph may add BertModel's dropout (EncoderDropout): the config's hidden rate on
// h₀ and on the attention and feed-forward outputs before their residual sums, its attention
// rate on the attention probabilities; alignment and evaluation graphs have none.
import { Graph, type Value } from '../../nn/graph.ts';
import { multiHeadAttention } from '../../nn/blocks/attention.ts';
import { Scope } from '../../nn/blocks/scope.ts';
import { add, cast, dropout, gather, gelu, layerNorm, matmul, relu, slice, transposeLast } from '../../nn/ops/all-ops.ts';
import { Rng } from '../../nn/init.ts';
import type { Tensor } from '../../nn/tensor.ts';
import type { EncoderConfig } from './hf-config.ts';
import { encoderParamShapes, LANGUAGE_EMBEDDINGS } from './hf-weights.ts';

/** Input names, as transformers' ONNX exports name the first two. */
export const INPUT_IDS = 'input_ids';
export const ATTENTION_MASK = 'attention_mask';
export const POSITION_IDS = 'position_ids';
/** Per-token language ids (0 = source side, 1 = target side), read only by an encoder with language embeddings. */
export const LANGUAGE_IDS = 'language_ids';

/** Output name of hidden state `l` (0 = embeddings' output, L = the last layer's). */
export const hiddenStateName = (l: number): string => `hidden_states.${l}`;

export interface EncoderGraph {
  graph: Graph;
  /** hidden states 0…L, each [batch, len, hidden] */
  hidden: Value[];
  /** the attention mask as float [batch, len] */
  mask: Value;
  /** the parameter of that name (transformers' name; declared on first use) */
  param: (name: string) => Value;
}

/** A parameter getter: the graph parameter of a transformers name. */
export type ParamOf = (name: string) => Value;

/** Training dropout of the encoder's sites (see the header), each site seeded from `seed`. */
export interface EncoderDropout {
  hidden: number;
  attention: number;
  seed: number;
}

/** Applies dropout of one kind at a new site; identity without dropout or at rate 0. */
export type DropSite = (x: Value, kind: 'hidden' | 'attention') => Value;

export const NO_DROPOUT: DropSite = (x) => x;

/** The drop sites of `d` (seeds drawn in graph-building order, so a graph rebuilt alike draws alike). */
export function dropSites(d: EncoderDropout | undefined): DropSite {
  if (!d) return NO_DROPOUT;
  const rng = new Rng(d.seed);
  return (x, kind) => {
    const rate = d[kind];
    return rate > 0 ? dropout(x, rate, rng.int(2 ** 31)) : x;
  };
}

/** The embeddings' output h₀ = LN(E_word[ids] + E_pos[positions] + E_type[0] (+ E_lang[languages] when given)). */
export function embeddingsOutput(
  c: EncoderConfig,
  p: ParamOf,
  ids: Value,
  positions: Value,
  languages: Value | null,
  drop: DropSite = NO_DROPOUT,
): Value {
  const type0 = slice(p('embeddings.token_type_embeddings.weight'), [0], [1], [0]);
  let embedded = add(
    add(gather(p('embeddings.word_embeddings.weight'), ids), gather(p('embeddings.position_embeddings.weight'), positions)),
    type0,
  );
  if (languages) embedded = add(embedded, gather(p(LANGUAGE_EMBEDDINGS), languages));
  return drop(layerNorm(embedded, p('embeddings.LayerNorm.weight'), p('embeddings.LayerNorm.bias'), c.layerNormEps), 'hidden');
}

/** One post-LN BertLayer under prefix `at` (e.g. encoder.layer.3) on h [B, T, D] with float mask [B, T]. */
export function encoderLayer(c: EncoderConfig, p: ParamOf, at: string, h: Value, mask: Value, drop: DropSite = NO_DROPOUT): Value {
  const dense = (name: string, x: Value): Value => add(matmul(x, transposeLast(p(`${name}.weight`))), p(`${name}.bias`));
  const norm = (name: string, x: Value): Value => layerNorm(x, p(`${name}.weight`), p(`${name}.bias`), c.layerNormEps);
  const act = c.activation === 'relu' ? relu : gelu;
  const names = { q: 'attention.self.query', k: 'attention.self.key', v: 'attention.self.value', o: 'attention.output.dense' };
  const attn = multiHeadAttention(
    new Scope(h.graph),
    h,
    mask,
    c.heads,
    (role, x) => dense(`${at}.${names[role]}`, x),
    (probs) => drop(probs, 'attention'),
  );
  const a = norm(`${at}.attention.output.LayerNorm`, add(drop(attn, 'hidden'), h));
  const ff = dense(`${at}.output.dense`, act(dense(`${at}.intermediate.dense`, a)));
  return norm(`${at}.output.LayerNorm`, add(drop(ff, 'hidden'), a));
}

/** The encoder over `weights` (encoderParamShapes' names, and LANGUAGE_EMBEDDINGS when it has them; each becomes a parameter of the graph). */
export function buildEncoderGraph(c: EncoderConfig, weights: ReadonlyMap<string, Tensor>, drop: DropSite = NO_DROPOUT): EncoderGraph {
  const g = new Graph();
  const shapes = encoderParamShapes(c);
  const param = (name: string): Value => {
    const t = weights.get(name);
    if (!t) throw new Error(`encoder graph: no weight ${name}`);
    return g.param(name, shapes.get(name) ?? [...t.dims], () => t);
  };
  const ids = g.input(INPUT_IDS, 'int64', ['batch', 'len']);
  const mask = cast(g.input(ATTENTION_MASK, 'int64', ['batch', 'len']), 'float32');
  const positions = g.input(POSITION_IDS, 'int64', ['batch', 'len']);
  const languages = weights.has(LANGUAGE_EMBEDDINGS) ? g.input(LANGUAGE_IDS, 'int64', ['batch', 'len']) : null;
  const hidden = [embeddingsOutput(c, param, ids, positions, languages, drop)];
  for (let l = 0; l < c.layers; l++) hidden.push(encoderLayer(c, param, `encoder.layer.${l}`, hidden[l], mask, drop));
  return { graph: g, hidden, mask, param };
}
