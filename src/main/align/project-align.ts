// The app's Align job, one for every family that aligns without training a run, and the one
// way a job aligns a project's pairs off the serving thread (alignedOffThread, also the
// Models page's Re-align, train/realign-job.ts). On a thread of its own
// (project-align.worker.ts) the job reads the project's visible pairs, asks the method's
// registry entry for its Align job's links (aligners/registry.ts: the statistical engine, or a
// pretrained encoder in a worker thread of its own) and applies the linguists' corrections
// (corrections.ts: every gold link kept, partial gold too, no rejected link proposed); this
// thread stores the result as a new model alignment with each link's score
// (store/model-alignments.ts; a model row records the method and its settings).
import type { Link } from '../../shared/link-set.ts';
import type { ProjectAlignOptions } from '../aligners/app-jobs.ts';
import { type JobContext, silentContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import { storeModelAlignment } from '../store/model-alignments.ts';
import type { ProjectStore } from '../store/project-store.ts';
import type { AboutOf, ProjectAlignJob, ProjectAlignResult, ProjectAlignTask } from './project-align.worker.ts';

/** A project's pairs aligned off this thread: pair ids[k]'s links (corrections applied) are linksOf(k). */
export interface AlignedPairs<A> {
  ids: number[];
  linksOf: (k: number) => Link[];
  about: A;
}

/** Runs `job` on the project in a worker thread (project-align.worker.ts) and returns its links. */
export async function alignedOffThread<J extends ProjectAlignJob>(
  store: ProjectStore,
  job: J,
  ctx: JobContext,
): Promise<AlignedPairs<AboutOf<J>>> {
  const r = await runInWorker<ProjectAlignTask<J>, ProjectAlignResult<AboutOf<J>>>(
    new URL('./project-align.worker.ts', import.meta.url),
    { path: store.path, job },
    ctx,
  );
  const linksOf = (k: number): Link[] => {
    const links: Link[] = [];
    for (let i = r.off[k]; i < r.off[k + 1]; i++) {
      const score = r.score[i];
      links.push({ s: r.s[i], t: r.t[i], kind: r.sure[i] ? 'sure' : 'possible', score: Number.isNaN(score) ? null : score });
    }
    return links;
  };
  return { ids: Array.from(r.ids), linksOf, about: r.about };
}

/** Runs the job; returns a one-line summary. */
export async function alignProject(store: ProjectStore, o: ProjectAlignOptions, ctx: JobContext = silentContext()): Promise<string> {
  const { ids, linksOf, about } = await alignedOffThread(store, { kind: 'align', options: o }, ctx);
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const count = await storeModelAlignment(
    store,
    { name: `${about.label} (${when})`, untrainedModel: about.model },
    ids,
    linksOf,
    ctx.signal,
  );
  return `aligned ${ids.length} pairs with ${about.summary}: ${count} links`;
}
