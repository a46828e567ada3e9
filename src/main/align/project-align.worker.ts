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
import { goldByPair, loadPairSides, rejectedByPair } from '../store/pair-corpus.ts';
import { ProjectStore } from '../store/project-store.ts';
import { type CheckpointAbout, type CheckpointTarget, checkpointLinks } from '../train/checkpoint-links.ts';
import { goldAsLinks, withCorrections } from './corrections.ts';
import { grownFor } from '../grown-array.ts';

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

/** The Align job's links of every pair, corrections applied, pair by pair as the aligner gives them. */
async function alignLinks(
  store: ProjectStore,
  o: ProjectAlignOptions,
  ctx: WorkerContext,
): Promise<{ ids: number[]; links: Iterable<readonly Link[]>; about: AlignAbout }> {
  const corpus = loadPairSides(store, false);
  const { ids } = corpus;
  const gold = goldByPair(store, ids, 'all').map(goldAsLinks);
  const rejected = rejectedByPair(store, ids);
  const aligned = await (await alignJobOf(o.method)).align(store, o, { corpus, gold, rejected }, ctx);
  function* corrected(): Generator<readonly Link[]> {
    let k = 0;
    for (const links of aligned.links) {
      yield withCorrections(links, gold[k], rejected[k]);
      k++;
    }
    for (; k < ids.length; k++) yield withCorrections([], gold[k], rejected[k]);
  }
  return { ids, links: corrected(), about: { label: aligned.label, model: aligned.model, summary: aligned.summary } };
}

/** Every pair's links as flat typed arrays, grown as the pairs' links are read (once, in order). */
function flat<A>(ids: readonly number[], perPair: Iterable<readonly Link[]>, about: A): ProjectAlignResult<A> {
  const off = new Int32Array(ids.length + 1);
  let s = new Int32Array(1024),
    t = new Int32Array(1024),
    sure = new Uint8Array(1024),
    score = new Float64Array(1024);
  let n = 0,
    k = 0;
  for (const links of perPair) {
    if (k === ids.length) throw new Error(`the aligner gave links for more than the ${ids.length} pairs`);
    const need = n + links.length;
    if (need > s.length) [s, t, sure, score] = [grownFor(s, need), grownFor(t, need), grownFor(sure, need), grownFor(score, need)];
    for (const l of links) {
      s[n] = l.s;
      t[n] = l.t;
      sure[n] = l.kind === 'sure' ? 1 : 0;
      score[n] = l.score ?? NaN;
      n++;
    }
    off[++k] = n;
  }
  if (k !== ids.length) throw new Error(`the aligner gave links for ${k} of the ${ids.length} pairs`);
  // Views of the used length, moved to the serving thread with their buffers (unused capacity
  // included, at most as much again: copying them would hold both at once instead).
  const used = { s: s.subarray(0, n), t: t.subarray(0, n), sure: sure.subarray(0, n), score: score.subarray(0, n) };
  return { ids: Int32Array.from(ids), off, ...used, about };
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
