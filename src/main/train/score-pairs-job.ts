// The app's "Score parallelism" job (issue 18, sentence-level curation): trains Bi-Sent2Vec
// (seed 002) on the project's pairs with a tenth held out to find the flagging threshold
// (models/bisent2vec/curation.ts: those pairs with a tenth of their targets shuffled, the
// threshold that best separates them), then gives every pair its margin score (seed 001,
// appendix B; the cosine of the sentence vectors) with the best other candidate, and stores
// them (store/pair-scores.ts): pairs under the threshold are flagged as misaligned, for the
// pair list to filter and sort by and the linguist to exclude. Excluded pairs are scored too,
// so that including one again shows its score. Reading the pairs, the training and the
// scoring run in a worker thread (curation.worker.ts), so the server keeps answering meanwhile.
// With a saved siamese head (seed 004) nothing is trained: a pair's score is the cosine of its
// sides' vectors through the head, the threshold found on the project's dev and test pairs
// (models/siamese/head-mining.ts scoreWithHead).
import type { JobContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import { saveParallelism } from '../store/pair-scores.ts';
import type { ProjectStore } from '../store/project-store.ts';
import type { CurationTask, ScoreResult } from './curation.worker.ts';

/** Runs the job; returns a one-line summary. */
export async function scoreProjectPairs(store: ProjectStore, ctx: JobContext, head?: string): Promise<string> {
  const r = await runInWorker<CurationTask, ScoreResult>(
    new URL('./curation.worker.ts', import.meta.url),
    { type: 'score', projectPath: store.path, ...(head === undefined ? {} : { head }) },
    ctx,
  );
  const { ids } = r;
  saveParallelism(
    store,
    r.scores.map((s, k) => ({
      pairId: ids[k],
      score: s.score,
      misaligned: s.flagged,
      rival: s.rival ? { pairId: ids[s.rival.index], side: s.rival.side, score: s.rival.score } : null,
    })),
    r.threshold,
  );
  const misaligned = r.scores.filter((s) => s.flagged).length;
  const by = head === undefined ? '' : ` with the siamese head ${head}`;
  return `scored ${ids.length} pairs${by}: ${misaligned} under the threshold ${r.threshold.toFixed(3)} (on ${r.heldOut} ${r.heldOutWhat} with a tenth shuffled: precision ${r.flagging.precision.toFixed(2)}, recall ${r.flagging.recall.toFixed(2)})`;
}
