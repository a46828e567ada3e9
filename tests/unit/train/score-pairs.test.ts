// Sentence-level curation through the API on a real project file: 600 en–de news pairs of
// which every tenth has another pair's target; the Score job scores every pair (the shuffled
// ones lower) and flags those under the learned threshold, the list filters and sorts by the score, a bulk
// action excludes the flagged pairs, and excluded pairs are left out of what training and
// export read. The corpus is ../shared/data's (bench-corpora/uniq39k).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { JobRegistry } from '../../../src/main/jobs/job-registry.ts';
import { loadCorpus } from '../../../src/main/store/pair-corpus.ts';
import { project } from '../review/fixture.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const CORPORA = join(import.meta.dirname, '../../../../shared/data/bench-corpora');
const dir = tempDir('mekong-score-');
const N = 600;

test.runIf(existsSync(join(CORPORA, 'uniq39k.en')))(
  'scores every pair, flags the shuffled ones, filters, sorts and excludes them',
  async () => {
    const lines = (side: string) =>
      readFileSync(join(CORPORA, `uniq39k.${side}`), 'utf8')
        .split('\n')
        .slice(0, N);
    const en = lines('en'),
      de = lines('de');
    // every tenth pair (k % 10 === 3) takes the target of the pair 300 further on
    const shuffled = new Set(en.map((_, k) => k).filter((k) => k % 10 === 3));
    const { store, ids } = project(
      dir,
      en.map((s, k) => [s, shuffled.has(k) ? de[(k + N / 2) % N] : de[k]]),
    );
    const ctx: AppContext = { mode: 'browser', version: 't', store, annotator: 'a', jobs: new JobRegistry(), dataDir: dir };
    const api = dispatchApi(ctx);
    const done = new Promise<string>((resolve, reject) =>
      ctx.jobs.onEvent((e) => {
        if (e.type === 'job.done') resolve(e.message ?? '');
        if (e.type === 'job.failed') reject(new Error(e.error));
      }),
    );
    await api.invoke('curation.score', {});
    expect(await done).toMatch(new RegExp(`^scored ${N} pairs: \\d+ under the threshold`));
    const info = store.info();
    expect(info.parallelismThreshold).not.toBeNull();

    const flagged = store.listPairs({ misaligned: true }, 0, N).pairs;
    expect(flagged.length).toBeGreaterThan(0);
    // the scores separate the shuffled pairs from the rest (how well is the bench's to say)
    // (a shuffled pair scores under a kept one 77% of the time here, models/bisent2vec/curation.ts)
    const all = store.listPairs({}, 0, N).pairs;
    const scoresOf = (bad: boolean) => all.filter((p, k) => shuffled.has(k) === bad).map((p) => p.parallelism!.score);
    const kept = scoresOf(false);
    const under = scoresOf(true).reduce((a, b) => a + kept.filter((g) => b < g).length, 0);
    expect(under / (kept.length * shuffled.size)).toBeGreaterThan(0.7);
    for (const p of flagged) {
      expect(p.parallelism!.misaligned).toBe(true);
      expect(p.parallelism!.score).toBeLessThan(info.parallelismThreshold!);
    }
    const rival = flagged.find((p) => p.parallelism!.rival)!.parallelism!.rival!;
    expect(ids).toContain(rival.pairId);

    const sorted = (await api.invoke('pairs.list', { filter: { order: 'parallelism' }, offset: 0, limit: N })).pairs;
    const scores = sorted.map((p) => p.parallelism!.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    const second = await api.invoke('pairs.list', { filter: { order: 'parallelism' }, offset: 100, limit: 50, afterId: 1 });
    expect(second.pairs.map((p) => p.id)).toEqual(sorted.slice(100, 150).map((p) => p.id));

    const { changed } = await api.invoke('pairs.exclude', { filter: { misaligned: true }, excluded: true });
    expect(changed).toBe(flagged.length);
    expect(store.info().excluded).toBe(flagged.length);
    expect(loadCorpus(store, false).ids).toHaveLength(N - flagged.length);
    expect(store.listPairs({ excluded: true }, 0, 1000).pairs.every((p) => p.excluded)).toBe(true);
    expect((await api.invoke('pairs.exclude', { filter: {}, excluded: false })).changed).toBe(flagged.length);
    expect(loadCorpus(store, false).ids).toHaveLength(N);
    store.close();
  },
  300_000,
);

test('a project too small to hold pairs out for the threshold is refused with the count, nothing stored', async () => {
  const { store } = project(
    dir,
    Array.from({ length: 30 }, (_, k): [string, string] => [`w${k} x`, `v${k} y`]),
  );
  const ctx: AppContext = { mode: 'browser', version: 't', store, annotator: 'a', jobs: new JobRegistry(), dataDir: dir };
  const failed = new Promise<string>((resolve) => ctx.jobs.onEvent((e) => e.type === 'job.failed' && resolve(e.error)));
  await dispatchApi(ctx).invoke('curation.score', {});
  expect(await failed).toMatch(/^scoring needs at least \d+ pairs .*; this project has 30$/);
  expect(store.info().parallelismThreshold).toBeNull();
  store.close();
}, 60_000);
