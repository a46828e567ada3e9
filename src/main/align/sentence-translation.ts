// How well two sentences translate each other under IBM Model 1's lexical tables, trained by
// the aligner engine on a parallel corpus (models/bisent2vec/curation.ts adds it to the
// cosine of sentence vectors for mining). With s (I words) and t (J words):
//   lex(s, t) = ½ [ (1/J) Σ_j log p(t_j | s) + (1/I) Σ_i log p(s_i | t) ],
//   p(t_j | s) = (tNull(t_j) + Σ_i t(t_j | s_i)) / (I + 1)   (IBM1's uniform alignment),
// the mean per-word log-likelihood of each side given the other (fwd's table t(target |
// source), rev's t(source | target)), averaged over both directions: about −2 for a caption
// and its translation, −8 for two unrelated captions. Word pairs the tables never saw and
// words they do not know count as UNSEEN (saved-model.ts); an empty side scores log UNSEEN.
import { type JobContext, silentContext, withMessage } from '../jobs/job-context.ts';
import { alignCorpus } from './engine.ts';
import { PairTable } from './pair-table.ts';
import { type SavedModel, UNSEEN } from './statistical-model.ts';
import type { Lexicon } from './translation-table.ts';

const LOG_UNSEEN = Math.log(UNSEEN);

/** IBM1 tables of both directions (lowercased words) trained on sentence pairs: 5 EM iterations (train-plans.ts). */
export async function trainSentenceTranslation(
  src: readonly (readonly string[])[],
  tgt: readonly (readonly string[])[],
  ctx: JobContext = silentContext(),
): Promise<SavedModel> {
  return (await alignCorpus(src, tgt, { method: 'ibm1', lowercase: true }, { ctx: withMessage(ctx, 'lexicon (IBM1)') })).model;
}

export class SentenceTranslation {
  private readonly ids: [Map<string, number>, Map<string, number>];
  private readonly table: PairTable;

  constructor(private readonly m: SavedModel) {
    this.ids = [new Map(m.srcVocab.map((w, i) => [w, i])), new Map(m.tgtVocab.map((w, i) => [w, i]))];
    this.table = new PairTable();
    for (let p = 0; p < m.pairSrc.length; p++) this.table.intern(m.pairSrc[p], m.pairTgt[p]);
  }

  /** Word ids of one side's sentences (0 source, 1 target; −1 for words the tables do not know). */
  encode(side: 0 | 1, sentences: readonly (readonly string[])[]): Int32Array[] {
    const ids = this.ids[side];
    const norm = (w: string) => (this.m.lowercase ? w.toLowerCase() : w);
    return sentences.map((s) => Int32Array.from(s, (w) => ids.get(norm(w)) ?? -1));
  }

  /** lex(s, t) of two encoded sentences. */
  score(s: Int32Array, t: Int32Array): number {
    return (this.given(s, t, this.m.fwd.lex, false) + this.given(t, s, this.m.rev.lex, true)) / 2;
  }

  /** (1/|obs|) Σ log p(obs word | gen sentence) under `lex` (gen = source unless `genIsTarget`). */
  private given(gen: Int32Array, obs: Int32Array, lex: Lexicon, genIsTarget: boolean): number {
    if (obs.length === 0) return LOG_UNSEEN;
    let total = 0;
    for (const o of obs) {
      let p = 0;
      if (o >= 0) {
        p = lex.tNull[o];
        for (const g of gen) {
          if (g < 0) continue;
          const q = genIsTarget ? this.table.get(o, g) : this.table.get(g, o);
          p += q >= 0 ? lex.t[q] : UNSEEN;
        }
      }
      total += Math.log(Math.max(UNSEEN, p / (gen.length + 1)));
    }
    return total / obs.length;
  }
}
