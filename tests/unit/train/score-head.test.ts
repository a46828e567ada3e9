// The app's Score parallelism job with a saved siamese head (seed 004), through the API
// handlers on a real project file: a Bi-Sent2Vec model trained on 300 Multi30k en–fr pairs and a
// head trained on its vectors are saved as model folders; the project holds those pairs and 100
// more as its dev split, every tenth pair with another pair's target. Each pair's stored score
// is the cosine of its two sides' vectors through the head, exactly as
// openUnitSentenceVectors({ head }) (what `eval retrieval --head` ranks by) gives them over the
// project's pairs; the threshold is found on the dev pairs, the shuffled pairs score lower, and
// the flagged ones are under the threshold. A head folder that is not there is refused in one
// line before any job starts, and nothing is stored. The heads applied are recorded in the
// project and listed for the Models page (models.heads) with what their folders say.
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { rowDot } from '../../../src/main/eval/csls.ts';
import { JobRegistry } from '../../../src/main/jobs/job-registry.ts';
import { openUnitSentenceVectors } from '../../../src/main/models/siamese/headed-encoder.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { loadCorpus } from '../../../src/main/store/pair-corpus.ts';
import { project } from '../review/fixture.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';
import { jobOutcome } from '../helpers/job-outcome.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { M30K_AVAILABLE, m30kPairs } from '../models/siamese/bench-pairs.ts';
import { savedHead } from '../models/siamese/saved-head-fixture.ts';

const dir = tempDir('mekong-score-head-');
const N = 400,
  LEARNT = 300;

test.runIf(M30K_AVAILABLE)(
  "scores every pair by the cosine of the head's vectors, the number eval retrieval --head ranks by",
  async () => {
    const pairs = m30kPairs(N);
    const retrieval = { pairs: 100, p1: { srcTgt: 0.5, tgtSrc: 0.25 }, p5: { srcTgt: 0.75, tgtSrc: 0.5 } };
    const { b2v, head } = await savedHead(dir, { src: pairs.src.slice(0, LEARNT), tgt: pairs.tgt.slice(0, LEARNT) }, retrieval);

    // every tenth pair (k % 10 === 3) takes the target of the pair 200 further on
    const shuffled = new Set(pairs.src.map((_, k) => k).filter((k) => k % 10 === 3));
    const { store, ids } = project(
      dir,
      pairs.src.map((s, k) => [s.join(' '), pairs.tgt[shuffled.has(k) ? (k + N / 2) % N : k].join(' ')]),
    );
    store.setLanguages('en', 'fr');
    dbOf(store)
      .prepare(`UPDATE pairs SET split = 'dev' WHERE id IN (${ids.slice(LEARNT).join(',')})`)
      .run();
    const ctx: AppContext = { mode: 'browser', version: 't', store, annotator: 'a', jobs: new JobRegistry(), dataDir: dir };
    const api = dispatchApi(ctx);

    // refused at once, in one line, nothing stored
    await expect(api.invoke('curation.score', { head: join(dir, 'none') })).rejects.toThrow(`${join(dir, 'none', 'config.json')}: missing`);
    expect(store.info().parallelismThreshold).toBeNull();

    const done = jobOutcome(ctx);
    await api.invoke('curation.score', { head });
    expect(await done).toMatch(
      new RegExp(
        `^scored ${N} pairs with the siamese head ${head}: \\d+ under the threshold -?[\\d.]+ \\(on 100 dev/test project pairs with a tenth shuffled: `,
      ),
    );
    const threshold = store.info().parallelismThreshold!;
    const stored = new Map(store.listPairs({}, 0, N).pairs.map((p) => [p.id, p.parallelism!]));

    // eval retrieval --head's vectors over the same pairs: the stored score is their cosine
    const corpus = loadCorpus(store, true, { withExcluded: true });
    const v = await openUnitSentenceVectors({ head }, () => {});
    const [x, y] = [await v.embed(0, corpus.src), await v.embed(1, corpus.tgt)];
    await v.release();
    corpus.ids.forEach((id, i) => {
      const s = stored.get(id)!;
      expect(s.score).toBeCloseTo(rowDot(x, i, y, i, v.dim), 5);
      expect(s.misaligned).toBe(s.score < threshold);
    });

    // the shuffled pairs score under the kept ones
    const scoresOf = (bad: boolean) => ids.filter((_, k) => shuffled.has(k) === bad).map((id) => stored.get(id)!.score);
    const kept = scoresOf(false);
    const under = scoresOf(true).reduce((a, b) => a + kept.filter((g) => b < g).length, 0);
    console.log(
      `Score with a siamese head: a shuffled pair under a kept one ${((100 * under) / (kept.length * shuffled.size)).toFixed(1)}% of the time`,
    );
    expect(under / (kept.length * shuffled.size)).toBeGreaterThan(0.8);
    const flagged = [...stored.values()].filter((s) => s.misaligned);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.find((s) => s.rival)?.rival?.pairId).toBeDefined();

    // the head applied is recorded: the Models page lists it with what its folder says; a recorded folder gone, with why
    expect(await api.invoke('models.heads', {})).toEqual({
      heads: [
        {
          dir: head,
          head: { encoder: `bisent2vec:${b2v}`, pooling: null, layer: null, negatives: 'hard', epochs: 5, lr: 1e-3, retrieval },
          error: null,
        },
      ],
    });
    const gone = join(dir, 'head-gone');
    cpSync(head, gone, { recursive: true });
    const scored = jobOutcome(ctx);
    await api.invoke('curation.score', { head: gone });
    await scored;
    rmSync(gone, { recursive: true });
    const { heads } = await api.invoke('models.heads', {});
    expect(heads.map((h) => h.dir)).toEqual([gone, head]);
    expect(heads[0]).toEqual({ dir: gone, head: null, error: `${join(gone, 'config.json')}: missing` });
    store.close();
  },
  300_000,
);
