// The Models page's Re-align on a real project with a real trained checkpoint: the job reads
// and aligns on a thread of its own (align/project-align.worker.ts, as the Align job does), so
// the thread that serves the project keeps answering while 50,000 pairs are re-aligned.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect, test } from 'vitest';
import type { JobEvent } from '../../../src/shared/api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { silentContext } from '../../../src/main/jobs/job-context.ts';
import { goldAlignmentOf, linkInserter } from '../../../src/main/store/alignments.ts';
import { realignRun } from '../../../src/main/train/realign-job.ts';
import { syntheticCorpus } from '../models/bilstm/synthetic.ts';
import { markDone, project, sure } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-realign-');

test('re-aligning 50,000 pairs leaves the serving thread free', async () => {
  const small = syntheticCorpus(16, 12);
  const { store, ids } = project(
    dir,
    small.src.map((s, k) => [s.join(' '), small.tgt[k].join(' ')]),
  );
  const insert = linkInserter(store, goldAlignmentOf(store, 'anna'));
  store.transaction(() =>
    [0, 1, 2, 3].forEach((k) =>
      insert(
        ids[k],
        small.gold[k].map((l) => sure(l.s, l.t)),
      ),
    ),
  );
  markDone(store, ids.slice(0, 4));
  const events: JobEvent[] = [];
  const ctx = { ...createContext('browser', 'anna', dir), store };
  ctx.jobs.onEvent((e) => events.push(e));
  const r = await dispatch(ctx, 'models.train', { epochs: 1, dim: 16, batchSize: 8, lr: 1e-2, selfTrainEpochs: 0 });
  if (!r.ok) throw new Error(r.error.error);
  const { jobId, runId } = r.value as { jobId: string; runId: number };
  while (!events.some((e) => e.jobId === jobId && e.type !== 'job.progress')) await new Promise((res) => setTimeout(res, 50));
  expect(events.find((e) => e.jobId === jobId && e.type !== 'job.progress')).toMatchObject({ type: 'job.done' });

  // 50,000 more pairs of the same words: reading them and preparing their gold, held-out
  // marks and corrections took seconds of the serving thread when the job ran on it
  const big = syntheticCorpus(50_000, 12, 5);
  const file = join(dir, 'big.tsv');
  writeFileSync(file, big.src.map((s, k) => `${s.join(' ')}\t${big.tgt[k].join(' ')}\n`).join(''));
  await runImport(store, { file, format: 'tsv', tokenization: 'pretokenized', anyScript: true });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const message = await realignRun(store, { runId, epoch: 1, sym: 'gdfa' }, silentContext());
  delay.disable();
  expect(message).toMatch(new RegExp(`^re-aligned 50016 pairs with bilstm-ctl run ${runId} · epoch 1 \\+ gdfa: \\d+ links`));
  const model = store.info().alignments.find((a) => a.origin === 'model')!;
  expect(model.links).toBeGreaterThan(50_000);
  // gold kept with score 1
  const links = store.getPair(ids[0]).alignments.find((a) => a.alignmentId === model.id)!.links;
  for (const l of small.gold[0]) expect(links).toContainEqual({ s: l.s, t: l.t, kind: 'sure', score: 1 });
  expect(delay.max / 1e6).toBeLessThan(1000);
  store.close();
}, 300_000);
