// The work of the app's Align job (project-align.ts) on a thread of its own: reading the
// project's pairs and corrections and running the method's Align job take tens of seconds of
// one thread on 100k pairs (the corpus as token lists, the statistical engine's numbering of
// its cells), and on the server's thread every edit, page and event waited behind them. This
// worker opens its own read-only connection (in WAL mode it reads the last committed state
// and never blocks the server's writes), runs the job, applies the linguists' corrections and
// sends the links back as flat typed arrays, moved rather than copied: only the storing of
// the links, in slices that let requests through (store/bounded-writes.ts), stays on the
// server's thread.
import type { ProjectAlignOptions } from '../aligners/app-jobs.ts';
import { alignJobOf } from '../aligners/registry.ts';
import { serveWorker, type WorkerContext } from '../jobs/serve-worker.ts';
import type { NewModelAlignment } from '../store/model-alignments.ts';
import { goldByPair, loadCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import { ProjectStore } from '../store/project-store.ts';
import { goldAsLinks, withCorrections } from './corrections.ts';

export interface ProjectAlignTask {
  path: string;
  options: ProjectAlignOptions;
}

/** Pair ids[k]'s links are entries off[k] to off[k + 1] of s, t, sure (1 sure, 0 possible) and score (NaN: a human link's null). */
export interface ProjectAlignResult {
  ids: Int32Array;
  off: Int32Array;
  s: Int32Array;
  t: Int32Array;
  sure: Uint8Array;
  score: Float64Array;
  label: string;
  model: NonNullable<NewModelAlignment['untrainedModel']>;
  summary: string;
}

async function alignInThread({ path, options: o }: ProjectAlignTask, ctx: WorkerContext): Promise<ProjectAlignResult> {
  const store = ProjectStore.openReader(path);
  try {
    const corpus = loadCorpus(store, false);
    const { ids } = corpus;
    const gold = goldByPair(store, ids, 'all').map(goldAsLinks);
    const rejected = rejectedByPair(store, ids);
    const aligned = await (await alignJobOf(o.method)).align(store, o, { corpus, gold, rejected }, ctx);
    const off = new Int32Array(ids.length + 1);
    const perPair = ids.map((_, k) => withCorrections(aligned.links[k] ?? [], gold[k], rejected[k]));
    perPair.forEach((links, k) => (off[k + 1] = off[k] + links.length));
    const n = off[ids.length];
    const r: ProjectAlignResult = {
      ids: Int32Array.from(ids),
      off,
      s: new Int32Array(n),
      t: new Int32Array(n),
      sure: new Uint8Array(n),
      score: new Float64Array(n),
      label: aligned.label,
      model: aligned.model,
      summary: aligned.summary,
    };
    perPair.forEach((links, k) =>
      links.forEach((l, j) => {
        const i = off[k] + j;
        r.s[i] = l.s;
        r.t[i] = l.t;
        r.sure[i] = l.kind === 'sure' ? 1 : 0;
        r.score[i] = l.score ?? NaN;
      }),
    );
    return r;
  } finally {
    store.close();
  }
}

serveWorker<ProjectAlignTask, ProjectAlignResult>(alignInThread, {
  transfer: (r) => [r.ids, r.off, r.s, r.t, r.sure, r.score].map((a) => a.buffer as ArrayBuffer),
});
