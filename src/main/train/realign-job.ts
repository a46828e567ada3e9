// The Models page's Re-align job: aligns every pair of the project with one checkpoint of a
// training run in a worker thread (align/project-align.ts alignedOffThread, the Align job's
// own path: the reading, aligning, corrections and calibration are train/checkpoint-links.ts)
// and stores the result as a model alignment of that model and run
// (store/model-alignments.ts), each link's confidence as its score, so the review queue ranks
// pairs by the model's uncertainty, with how reliable the scores are on the held-out gold.
import { alignedOffThread } from '../align/project-align.ts';
import type { JobContext } from '../jobs/job-context.ts';
import { storeModelAlignment } from '../store/model-alignments.ts';
import type { ProjectStore } from '../store/project-store.ts';
import type { CheckpointTarget } from './checkpoint-links.ts';

/** Runs the job; returns a one-line summary. */
export async function realignRun(store: ProjectStore, target: CheckpointTarget, ctx: JobContext): Promise<string> {
  const { ids, linksOf, about } = await alignedOffThread(store, { kind: 'checkpoint', target }, ctx);
  const { name, calibration } = about;
  const count = await storeModelAlignment(
    store,
    { name, modelId: about.modelId, runId: target.runId, calibration },
    ids,
    linksOf,
    ctx.signal,
  );
  const ece = calibration ? `ECE ${calibration.eceRaw.toFixed(3)} → ${calibration.eceCalibrated.toFixed(3)}` : '';
  const calibrated = !calibration
    ? ''
    : calibration.applied
      ? `; scores calibrated on ${calibration.links} links of ${calibration.pairs} held-out pairs (${ece})`
      : target.calibrate
        ? `; scores left raw: calibrating on ${calibration.pairs} held-out pairs did not lower their error (${ece})`
        : `; score reliability measured on ${calibration.pairs} held-out pairs (${ece} if calibrated)`;
  return `re-aligned ${ids.length} pairs with ${name}: ${count} links${calibrated}`;
}
