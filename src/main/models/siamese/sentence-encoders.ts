// The frozen sentence encoders the siamese head (head.ts) can sit on, behind one interface:
// [n, dim] vectors of one side's tokenised sentences. Each reads a saved model folder with its
// own loading code and embeds with the model's own sentence embedding:
//   bisent2vec:DIR  Bi-Sent2Vec's sentence vectors (bisent2vec/embed.ts)
//   bilstm:DIR      the BiLSTM aligner's pooled encoder states, the vectors its contrastive
//                   loss is trained on (bilstm/sentence-vectors.ts)
//   hf:DIR          a Hugging Face encoder's hidden layer (defaultAlignLayer, the layer word
//                   alignment reads), averaged over the subwords of the sentence's words
//                   (template tokens left out), with language 0/1 for the source/target side.
import { UserError } from '../../errors.ts';
import { sentenceVectors } from '../bisent2vec/embed.ts';
import { loadBisent2vec } from '../bisent2vec/bisent2vec-folder.ts';
import { loadNeuralModel } from '../bilstm/bilstm-folder.ts';
import { bilstmSentenceVectors } from '../bilstm/sentence-vectors.ts';
import { defaultAlignLayer } from '../transformer/hf-config.ts';
import { HfEncoder } from '../transformer/hf-encoder.ts';
import { wordSubwords } from '../transformer/word-pooling.ts';

export type Side = 0 | 1;

export interface SentenceEncoder {
  /** the spec it was opened from (kind:DIR) */
  readonly spec: string;
  readonly dim: number;
  /** vectors [sentences, dim] of side 0 (source) or 1 (target) */
  embed(side: Side, sentences: readonly string[][]): Promise<Float32Array>;
  release(): Promise<void>;
}

export const ENCODER_KINDS = ['bisent2vec', 'bilstm', 'hf'] as const;

function hfEncoder(spec: string, dir: string): SentenceEncoder {
  const enc = HfEncoder.open(dir);
  const layer = defaultAlignLayer(enc.config);
  const dim = enc.config.hidden;
  return {
    spec,
    dim,
    async embed(side, sentences) {
      const encoded = enc.encode(sentences);
      const [hidden] = await enc.hiddenStates(
        encoded,
        [layer],
        undefined,
        encoded.map(() => side),
      );
      const out = new Float32Array(sentences.length * dim);
      encoded.forEach((s, k) => {
        const { rows } = wordSubwords(hidden[k], s, dim);
        const n = rows.length / dim;
        for (let r = 0; r < n; r++) for (let t = 0; t < dim; t++) out[k * dim + t] += rows[r * dim + t] / n;
      });
      return out;
    },
    release: () => enc.release(),
  };
}

/** Opens `kind:DIR` (one of ENCODER_KINDS); a malformed spec is a one-line UserError. */
export function openSentenceEncoder(spec: string): SentenceEncoder {
  const at = spec.indexOf(':');
  const kind = spec.slice(0, Math.max(at, 0)),
    dir = spec.slice(at + 1);
  if (at < 0 || !dir || !(ENCODER_KINDS as readonly string[]).includes(kind))
    throw new UserError(`--encoder must be ${ENCODER_KINDS.map((k) => `${k}:DIR`).join(', ')}; got "${spec}"`);
  const free = async () => {};
  if (kind === 'bisent2vec') {
    const m = loadBisent2vec(dir);
    return { spec, dim: m.config.dim, embed: async (side, s) => sentenceVectors(m, side, s), release: free };
  }
  if (kind === 'bilstm') {
    const m = loadNeuralModel(dir);
    return { spec, dim: m.dims.dim, embed: (side, s) => bilstmSentenceVectors(m, side, s), release: free };
  }
  return hfEncoder(spec, dir);
}
