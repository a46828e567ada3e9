// The frozen sentence encoders the siamese head (head.ts) can sit on, behind one interface:
// [n, dim] vectors of one side's tokenised sentences, one for each family whose capabilities
// give sentence vectors (the registry's SIAMESE_HEAD names them and parses a `kind:DIR` spec).
// Each reads a saved model folder with its own loading code and embeds with the model's own
// sentence embedding:
//   bisent2vec  Bi-Sent2Vec's sentence vectors (bisent2vec/embed.ts)
//   bilstm      the BiLSTM aligner's pooled encoder states, the vectors its contrastive loss
//               is trained on (bilstm/sentence-vectors.ts)
//   encoder     a Hugging Face encoder, with language 0/1 for the source/target side, pooled
//               as asked: 'mean' (default) the mean of hidden state `layer` (default
//               defaultAlignLayer, the layer word alignment reads) over the subwords of the
//               sentence's words, template tokens left out; 'cls' the first template token's
//               ([CLS], <s>) state at `layer` (default the last layer), before any pooler —
//               the sentence vector of seeds 000/001 (cls_before_pooler). A caller may set
//               its own default layer for 'mean': `mekong siamese` takes seed004Layer, the
//               paper's layer 7 of mBERT's 12 (its Table 8), scaled to the encoder's depth.
// Pooling and layer are options of the encoder family only; the other families refuse them.
import type { SentenceVectorFamily } from '../../../shared/methods.ts';
import { UserError } from '../../errors.ts';
import type { JobContext } from '../../jobs/job-context.ts';
import { sentenceVectors } from '../bisent2vec/embed.ts';
import { loadBisent2vec } from '../bisent2vec/bisent2vec-folder.ts';
import { loadNeuralModel } from '../bilstm/bilstm-folder.ts';
import { bilstmSentenceVectors } from '../bilstm/sentence-vectors.ts';
import { defaultAlignLayer } from '../transformer/hf-config.ts';
import { HfEncoder } from '../transformer/hf-encoder.ts';
import { wordSubwords } from '../transformer/word-pooling.ts';

export type Side = 0 | 1;

/** How a Hugging Face encoder's sentence vectors are read: its pooling and hidden state. */
export interface SentenceReading {
  pooling: SentencePooling;
  layer: number;
}

export interface SentenceEncoder {
  readonly dim: number;
  /** the encoder family's pooling and layer, as resolved (absent for the other families) */
  readonly reading?: SentenceReading;
  /** vectors [sentences, dim] of side 0 (source) or 1 (target); progress and cancel through `ctx` where the family runs batches */
  embed(side: Side, sentences: readonly string[][], ctx?: JobContext): Promise<Float32Array>;
  release(): Promise<void>;
}

/** A Hugging Face encoder's sentence vector: the mean of its words' subwords, or the [CLS] state. */
export type SentencePooling = 'mean' | 'cls';

export interface SentenceEncoderOptions {
  /** default 'mean' */
  pooling?: SentencePooling;
  /** hidden state read (0 = embeddings); default: the last layer for 'cls', meanLayer (default defaultAlignLayer) for 'mean' */
  layer?: number;
  /** the default layer for 'mean' given the encoder's number of layers */
  meanLayer?: (layers: number) => number;
  /** receives the line naming the execution provider (default console.info) */
  log?: (line: string) => void;
}

/** Seed 004's layer for mean pooling: its 7 of mBERT's 12 (Table 8's best), the same depth share of `layers`. */
export const seed004Layer = (layers: number): number => Math.max(1, Math.round((layers * 7) / 12));

function hfEncoder(dir: string, o: SentenceEncoderOptions): SentenceEncoder {
  const enc = HfEncoder.open(dir, { log: o.log });
  const pooling = o.pooling ?? 'mean';
  const layer =
    o.layer ?? (pooling === 'cls' ? enc.config.layers : o.meanLayer ? o.meanLayer(enc.config.layers) : defaultAlignLayer(enc.config));
  const dim = enc.config.hidden;
  if (pooling === 'cls' && enc.tokenizer.prefix.length === 0)
    throw new UserError(`${dir}: its tokenizer puts no [CLS] (or <s>) before a sentence: use --pooling mean`);
  return {
    dim,
    reading: { pooling, layer },
    async embed(side, sentences, ctx) {
      const encoded = enc.encode(sentences);
      const [hidden] = await enc.hiddenStates(
        encoded,
        [layer],
        ctx,
        encoded.map(() => side),
      );
      const out = new Float32Array(sentences.length * dim);
      encoded.forEach((s, k) => {
        if (pooling === 'cls') return out.set(hidden[k].subarray(0, dim), k * dim);
        const { rows } = wordSubwords(hidden[k], s, dim);
        const n = rows.length / dim;
        for (let r = 0; r < n; r++) for (let t = 0; t < dim; t++) out[k * dim + t] += rows[r * dim + t] / n;
      });
      return out;
    },
    release: () => enc.release(),
  };
}

const free = async () => {};

const OPEN: Readonly<Record<SentenceVectorFamily, (dir: string, o: SentenceEncoderOptions) => SentenceEncoder>> = {
  bisent2vec: (dir) => {
    const m = loadBisent2vec(dir);
    return { dim: m.config.dim, embed: async (side, s) => sentenceVectors(m, side, s), release: free };
  },
  bilstm: (dir) => {
    const m = loadNeuralModel(dir);
    return { dim: m.dims.dim, embed: (side, s) => bilstmSentenceVectors(m, side, s), release: free };
  },
  encoder: hfEncoder,
};

/** Opens the saved model in `dir` of a family that gives sentence vectors; pooling and layer only for the encoder family. */
export function openSentenceEncoder(family: SentenceVectorFamily, dir: string, o: SentenceEncoderOptions = {}): SentenceEncoder {
  if (family !== 'encoder' && (o.pooling !== undefined || o.layer !== undefined))
    throw new UserError(`--pooling and --layer choose a Hugging Face encoder's sentence vector (hf:DIR); ${family} has its own`);
  return OPEN[family](dir, o);
}
