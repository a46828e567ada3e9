// Where a project's pairs are read and aligned for a model alignment, on a thread of its own:
// the app's Align job (project-align.ts: the method's registry entry aligns) and the Models
// page's Re-align (train/realign-job.ts: a run's checkpoint aligns, train/checkpoint-links.ts).
// Reading the project's pairs and corrections and aligning them take tens of seconds of one
// thread on 100k pairs (the corpus as token lists, the statistical engine's numbering of its
// cells), and on the server's thread every edit, page and event waited behind them. This
// worker opens its own read-only connection (in WAL mode it reads the last committed state
// and never blocks the server's writes), runs the job, applies the linguists' corrections and
// sends the links back as flat typed arrays, moved rather than copied: only the storing of
// the links, in slices that let requests through (store/bounded-writes.ts), stays on the
// server's thread.
import type { Link } from '../../shared/link-set.ts';
import type { ProjectAlignOptions } from '../aligners/app-jobs.ts';
import { alignJobOf } from '../aligners/registry.ts';
import { serveWorker, type WorkerContext } from '../jobs/serve-worker.ts';
import type { NewModelAlignment } from '../store/model-alignments.ts';
import { goldByPair, loadCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import { ProjectStore } from '../store/project-store.ts';
import { type CheckpointAbout, type CheckpointTarget, checkpointLinks } from '../train/checkpoint-links.ts';
import { goldAsLinks, withCorrections } from './corrections.ts';

/** What the Align job's aligner made the links with. */
export interface AlignAbout {
  /** the alignment's name before its time stamp */
  label: string;
  model: NonNullable<NewModelAlignment['untrainedModel']>;
  /** "<method> …" for "aligned N pairs with <summary>: L links" */
  summary: string;
}

/** The job a worker runs, and what its result says about the links besides them. */
export type ProjectAlignJob = { kind: 'align'; options: ProjectAlignOptions } | { kind: 'checkpoint'; target: CheckpointTarget };
export type AboutOf<J extends ProjectAlignJob> = J extends { kind: 'align' } ? AlignAbout : CheckpointAbout;

export interface ProjectAlignTask<J extends ProjectAlignJob = ProjectAlignJob> {
  path: string;
  job: J;
}

/** Pair ids[k]'s links are entries off[k] to off[k + 1] of s, t, sure (1 sure, 0 possible) and score (NaN: a human link's null). */
export interface ProjectAlignResult<A = AlignAbout | CheckpointAbout> {
  ids: Int32Array;
  off: Int32Array;
  s: Int32Array;
  t: Int32Array;
  sure: Uint8Array;
  score: Float64Array;
  about: A;
}

/** The Align job's links of every pair, corrections applied. */
async function alignLinks(
  store: ProjectStore,
  o: ProjectAlignOptions,
  ctx: WorkerContext,
): Promise<{ ids: number[]; links: Link[][]; about: AlignAbout }> {
  const corpus = loadCorpus(store, false);
  const { ids } = corpus;
  const gold = goldByPair(store, ids, 'all').map(goldAsLinks);
  const rejected = rejectedByPair(store, ids);
  const aligned = await (await alignJobOf(o.method)).align(store, o, { corpus, gold, rejected }, ctx);
  const links = ids.map((_, k) => withCorrections(aligned.links[k] ?? [], gold[k], rejected[k]));
  return { ids, links, about: { label: aligned.label, model: aligned.model, summary: aligned.summary } };
}

/** Every pair's links as flat typed arrays. */
function flat<A>(ids: readonly number[], perPair: readonly (readonly Link[])[], about: A): ProjectAlignResult<A> {
  const off = new Int32Array(ids.length + 1);
  perPair.forEach((links, k) => (off[k + 1] = off[k] + links.length));
  const n = off[ids.length];
  const r: ProjectAlignResult<A> = {
    ids: Int32Array.from(ids),
    off,
    s: new Int32Array(n),
    t: new Int32Array(n),
    sure: new Uint8Array(n),
    score: new Float64Array(n),
    about,
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
}

async function alignInThread({ path, job }: ProjectAlignTask, ctx: WorkerContext): Promise<ProjectAlignResult> {
  const store = ProjectStore.openReader(path);
  try {
    const r = job.kind === 'align' ? await alignLinks(store, job.options, ctx) : await checkpointLinks(store, job.target, ctx);
    return flat<AlignAbout | CheckpointAbout>(r.ids, r.links, r.about);
  } finally {
    store.close();
  }
}

serveWorker<ProjectAlignTask, ProjectAlignResult>(alignInThread, {
  transfer: (r) => [r.ids, r.off, r.s, r.t, r.sure, r.score].map((a) => a.buffer as ArrayBuffer),
});
