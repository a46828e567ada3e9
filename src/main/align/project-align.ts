// The app's Align job, one for every family that aligns without training a run: it reads the
// project's visible pairs, asks the method's registry entry for its Align job's links
// (aligners/registry.ts: the statistical engine, or a pretrained encoder in a worker thread),
// applies the linguists' corrections (corrections.ts: every gold link kept, partial gold too, no rejected link
// proposed) and stores the result as a new model alignment with each link's score
// (store/model-alignments.ts; a model row records the method and its settings).
import type { ProjectAlignOptions } from '../aligners/app-jobs.ts';
import { alignJobOf } from '../aligners/registry.ts';
import { type JobContext, silentContext } from '../jobs/job-context.ts';
import { storeModelAlignment } from '../store/model-alignments.ts';
import { goldByPair, loadCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { goldAsLinks, withCorrections } from './corrections.ts';

/** Runs the job; returns a one-line summary. */
export async function alignProject(store: ProjectStore, o: ProjectAlignOptions, ctx: JobContext = silentContext()): Promise<string> {
  const corpus = loadCorpus(store, false);
  const { ids } = corpus;
  const gold = goldByPair(store, ids, 'all').map(goldAsLinks);
  const rejected = rejectedByPair(store, ids);
  const aligned = await (await alignJobOf(o.method)).align(store, o, { corpus, gold, rejected }, ctx);
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const count = await storeModelAlignment(
    store,
    { name: `${aligned.label} (${when})`, untrainedModel: aligned.model },
    ids,
    ids.map((_, k) => withCorrections(aligned.links[k] ?? [], gold[k], rejected[k])),
    ctx.signal,
  );
  return `aligned ${ids.length} pairs with ${aligned.summary}: ${count} links`;
}
