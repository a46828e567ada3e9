// The frozen sentence encoders the siamese head (head.ts) can sit on, behind one interface:
// [n, dim] vectors of one side's tokenised sentences, one for each family whose capabilities
// give sentence vectors (the registry's SIAMESE_HEAD names them and parses a `kind:DIR` spec).
// Each reads a saved model folder with its own loading code and embeds with the model's own
// sentence embedding:
//   bisent2vec  Bi-Sent2Vec's sentence vectors (bisent2vec/embed.ts)
//   bilstm      the BiLSTM aligner's pooled encoder states, the vectors its contrastive loss
//               is trained on (bilstm/sentence-vectors.ts)
//   encoder     a Hugging Face encoder's hidden layer (defaultAlignLayer, the layer word
//               alignment reads), averaged over the subwords of the sentence's words
//               (template tokens left out), with language 0/1 for the source/target side.
import type { SentenceVectorFamily } from '../../../shared/methods.ts';
import { sentenceVectors } from '../bisent2vec/embed.ts';
import { loadBisent2vec } from '../bisent2vec/bisent2vec-folder.ts';
import { loadNeuralModel } from '../bilstm/bilstm-folder.ts';
import { bilstmSentenceVectors } from '../bilstm/sentence-vectors.ts';
import { defaultAlignLayer } from '../transformer/hf-config.ts';
import { HfEncoder } from '../transformer/hf-encoder.ts';
import { wordSubwords } from '../transformer/word-pooling.ts';

export type Side = 0 | 1;

export interface SentenceEncoder {
  readonly dim: number;
  /** vectors [sentences, dim] of side 0 (source) or 1 (target) */
  embed(side: Side, sentences: readonly string[][]): Promise<Float32Array>;
  release(): Promise<void>;
}

function hfEncoder(dir: string): SentenceEncoder {
  const enc = HfEncoder.open(dir);
  const layer = defaultAlignLayer(enc.config);
  const dim = enc.config.hidden;
  return {
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

const free = async () => {};

const OPEN: Readonly<Record<SentenceVectorFamily, (dir: string) => SentenceEncoder>> = {
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

/** Opens the saved model in `dir` of a family that gives sentence vectors. */
export function openSentenceEncoder(family: SentenceVectorFamily, dir: string): SentenceEncoder {
  return OPEN[family](dir);
}
