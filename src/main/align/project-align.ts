// The app's Align job, one for every family that aligns without training a run: on a thread of
// its own (project-align.worker.ts) it reads the project's visible pairs, asks the method's
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
import type { ProjectAlignResult, ProjectAlignTask } from './project-align.worker.ts';

/** Pair k's links of a worker's flat result. */
function pairLinks(r: ProjectAlignResult, k: number): Link[] {
  const links: Link[] = [];
  for (let i = r.off[k]; i < r.off[k + 1]; i++) {
    const score = r.score[i];
    links.push({ s: r.s[i], t: r.t[i], kind: r.sure[i] ? 'sure' : 'possible', score: Number.isNaN(score) ? null : score });
  }
  return links;
}

/** Runs the job; returns a one-line summary. */
export async function alignProject(store: ProjectStore, o: ProjectAlignOptions, ctx: JobContext = silentContext()): Promise<string> {
  const r = await runInWorker<ProjectAlignTask, ProjectAlignResult>(
    new URL('./project-align.worker.ts', import.meta.url),
    { path: store.path, options: o },
    ctx,
  );
  const ids = Array.from(r.ids);
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const count = await storeModelAlignment(
    store,
    { name: `${r.label} (${when})`, untrainedModel: r.model },
    ids,
    (k) => pairLinks(r, k),
    ctx.signal,
  );
  return `aligned ${ids.length} pairs with ${r.summary}: ${count} links`;
}
