// One training thread's share of EM: a slice of the pairs (k0..k1-1), both directions of
// each. Every iteration runs the E-step over the slice with the models' current parameters
// (handed in by em-trainer.ts, which merges the slices' model statistics), leaving expected
// counts in the slice's own shared arrays; the next iteration first re-estimates the
// lexicons from the counts of all slices, each slice taking its share of the directions,
// and meets the other slices at a barrier before anything reads the new tables. The last
// iteration also decodes each pair as its posteriors come out (nothing per cell is kept)
// and writes its links to the slice's file. The slice reads its pairs block by block from
// the corpus file (corpus-file.ts) every iteration, into buffers it reuses.
// Against one thread per direction exchanging per-cell posteriors: no second pass over
// dup100k's 29.3M cells for the agreement counts, no 117 MB of posteriors, and the threads
// meet twice per iteration instead of waiting on each other's direction.
import { barrierWait } from './barrier.ts';
import type { Constraints } from './constraints.ts';
import { BlockReader, type CorpusLayout } from './corpus-file.ts';
import { decodePair, LinkWriter, type DecodeOptions, type LinkFile } from './decode.ts';
import type { ModelParams, ModelStats } from './directional-model.ts';
import { PairEStep } from './estep.ts';
import { createModel } from './models/model-kinds.ts';
import type { Prior } from './prior.ts';
import { mStep, resetCounts, type LexCounts, type LexTables } from './translation-table.ts';
import { makeView, showBlock, type Direction, type View } from './view.ts';

export const DIRECTIONS: readonly Direction[] = ['fwd', 'rev'];

/** What a slice needs, structured-clone-safe (shared arrays are shared, not copied). */
export interface SliceJob {
  corpus: CorpusLayout;
  k0: number;
  k1: number;
  /** this slice's index in `counts` */
  index: number;
  tables: LexTables;
  /** the counts of every slice (the M-step sums them) */
  counts: LexCounts[];
  constraints: Constraints;
  prior: Prior | null;
  agreement: boolean;
  decode: DecodeOptions;
  /** barrier state shared by all slices (barrier.ts) */
  barrier: Int32Array;
  /** where the last iteration writes the slice's links */
  linksFile: string;
}

/** One EM iteration as the trainer asks it of every slice. */
export interface EmStep {
  /** re-estimate the lexicons from the previous iteration's counts first */
  maximize: boolean;
  /** gather statistics (counts, model statistics) */
  learn: boolean;
  /** decode the pairs (the last iteration) */
  decode: boolean;
  /** the tables are still newLexTables's uniform ones and the model is IBM1: pairs without constraints count in closed form (PairEStep.countUniform) */
  uniform: boolean;
  params: Record<Direction, ModelParams>;
}

export interface SliceStepResult {
  stats: Record<Direction, ModelStats>;
  links?: LinkFile;
  /** seconds this slice spent decoding and symmetrising (with links) */
  decodeSeconds?: number;
}

export class EmSlice {
  private readonly views: Record<Direction, View>;
  private readonly estep: PairEStep;
  private readonly reader: BlockReader;

  constructor(private readonly job: SliceJob) {
    this.views = { fwd: makeView(job.corpus, 'fwd'), rev: makeView(job.corpus, 'rev') };
    this.reader = new BlockReader(job.corpus);
    this.estep = new PairEStep({ views: this.views, tables: job.tables, counts: job.counts[job.index], constraints: job.constraints });
  }

  /** Lexicon M-step of this slice's share of the directions, then waits for the other slices'. */
  maximize(): void {
    const { job } = this;
    DIRECTIONS.forEach((dir, i) => {
      if (i % job.counts.length === job.index) mStep(this.views[dir], job.tables, job.counts, job.prior);
    });
    barrierWait(job.barrier, job.counts.length);
  }

  step(s: EmStep): SliceStepResult {
    const { job } = this;
    if (s.maximize) this.maximize();
    if (s.learn) resetCounts(job.counts[job.index]);
    const models = { fwd: createModel(s.params.fwd.kind, s.params.fwd), rev: createModel(s.params.rev.kind, s.params.rev) };
    const counting = !s.learn ? 'none' : job.agreement ? 'agreement' : 'own';
    const out = s.decode ? new LinkWriter(job.k0, job.k1, job.linksFile) : null;
    const { reader, views, estep } = this;
    const blocks = job.corpus.blocks;
    let decodeMs = 0;
    for (let i = job.k0 < job.k1 ? reader.blockOf(job.k0) : blocks.length; i < blocks.length && blocks[i].first < job.k1; i++) {
      const b = reader.read(i);
      showBlock(views.fwd, b);
      showBlock(views.rev, b);
      for (let k = Math.max(job.k0, b.first), end = Math.min(job.k1, b.first + b.n); k < end; k++) {
        if (s.uniform && counting !== 'none' && !job.constraints.has(k)) {
          estep.countUniform(k, counting);
          continue;
        }
        const p = estep.run(k, models, s.learn, counting);
        if (!p || !out) continue;
        const t0 = performance.now();
        out.add(k, p.J, decodePair(p, job.decode));
        decodeMs += performance.now() - t0;
      }
    }
    const stats = { fwd: models.fwd.takeStats(), rev: models.rev.takeStats() };
    if (!out) return { stats };
    const links = out.finish();
    return { stats, links, decodeSeconds: decodeMs / 1000 };
  }
}
