// The app's Mine job with a saved siamese head (seed 004), through the API handlers on a real
// project file: a Bi-Sent2Vec model trained on 300 Multi30k en–fr pairs and a head trained on
// its vectors are saved as model folders; the project holds those pairs and 100 more as its
// dev split; two monolingual files hide 60 translation pairs among 60 lone sentences a side.
// The job embeds with the head's encoder and the head, finds the threshold on the dev pairs
// (which neither learned from) and proposes
// mostly true pairs: exactly the pairs `minePairs` gives over the vectors of
// openUnitSentenceVectors({ head }) (what `mine --head` and `eval retrieval --head` use) at
// that threshold. A head folder that is not there, or whose encoder is gone, is refused in
// one line before any job starts; a given threshold is kept.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { JobRegistry } from '../../../src/main/jobs/job-registry.ts';
import { minePairs } from '../../../src/main/eval/margin.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import { openUnitSentenceVectors } from '../../../src/main/models/siamese/headed-encoder.ts';
import { saveSiameseHead } from '../../../src/main/models/siamese/siamese-folder.ts';
import { SIAMESE_DEFAULTS } from '../../../src/shared/aligner-defaults.ts';
import { project } from '../review/fixture.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';
import { jobOutcome } from '../helpers/job-outcome.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { M30K_AVAILABLE, m30kPairs } from '../models/siamese/bench-pairs.ts';
import { savedHead } from '../models/siamese/saved-head-fixture.ts';

const dir = tempDir('mekong-mine-head-');
const TRAIN = 400,
  LEARNT = 300,
  HIDDEN = 60,
  LONE = 60;

test.runIf(M30K_AVAILABLE)(
  'mines with a saved siamese head on its encoder, through the same vectors as mine --head',
  async () => {
    const pairs = m30kPairs(TRAIN + HIDDEN + 2 * LONE);
    const { b2v, head, weights } = await savedHead(dir, { src: pairs.src.slice(0, LEARNT), tgt: pairs.tgt.slice(0, LEARNT) });

    const { store, ids } = project(
      dir,
      pairs.src.slice(0, TRAIN).map((s, k) => [s.join(' '), pairs.tgt[k].join(' ')]),
    );
    store.setLanguages('en', 'fr');
    dbOf(store)
      .prepare(`UPDATE pairs SET split = 'dev' WHERE id IN (${ids.slice(LEARNT).join(',')})`)
      .run();
    const ctx: AppContext = { mode: 'browser', version: 't', store, annotator: 'a', jobs: new JobRegistry(), dataDir: dir };
    const api = dispatchApi(ctx);

    // hidden pairs: lines TRAIN … TRAIN+HIDDEN of both sides, shuffled among lone sentences distinct per side
    const rng = new Rng(3);
    const hidden = Array.from({ length: HIDDEN }, (_, k) => TRAIN + k);
    const srcIdx = rng.shuffle([...hidden, ...Array.from({ length: LONE }, (_, k) => TRAIN + HIDDEN + k)]);
    const tgtIdx = rng.shuffle([...hidden, ...Array.from({ length: LONE }, (_, k) => TRAIN + HIDDEN + LONE + k)]);
    const srcFile = join(dir, 'comparable.en'),
      tgtFile = join(dir, 'comparable.fr');
    writeFileSync(srcFile, srcIdx.map((i) => pairs.src[i].join(' ') + '\n').join(''));
    writeFileSync(tgtFile, tgtIdx.map((i) => pairs.tgt[i].join(' ') + '\n').join(''));

    let done = jobOutcome(ctx);
    await api.invoke('mine.start', { srcFile, tgtFile, tokenization: 'pretokenized', head });
    expect(await done).toMatch(/^mining run 1: \d+ pairs proposed from 120 × 120 sentences/);
    const [run] = await api.invoke('mine.runs', {});
    expect(run.thresholdSource).toMatch(new RegExp(`^siamese head ${head}: best F1 on 100 dev/test project pairs \\(F1 `));
    const { proposals } = await api.invoke('mine.proposals', { runId: run.id, offset: 0, limit: 1000 });
    const right = proposals.filter((p) => srcIdx[p.srcLine - 1] === tgtIdx[p.tgtLine - 1]).length;
    console.log(
      `Mine with a siamese head: ${proposals.length} proposed, ${right} of them true (${HIDDEN} hidden pairs); ${run.thresholdSource}`,
    );
    expect(proposals.length).toBeGreaterThan(20);
    expect(right / proposals.length).toBeGreaterThan(0.5); // chance: 1 in 120

    // the same vectors as `mine --head`: minePairs over openUnitSentenceVectors({ head }) at the run's threshold
    const v = await openUnitSentenceVectors({ head }, () => {});
    const words = (idx: number[], side: string[][]) => idx.map((i) => side[i]);
    const expected = await minePairs(
      { x: await v.embed(0, words(srcIdx, pairs.src)), y: await v.embed(1, words(tgtIdx, pairs.tgt)), dim: v.dim },
      run.threshold,
    );
    await v.release();
    const asLines = (ps: { src: number; tgt: number }[]) => ps.map((p) => `${p.src}-${p.tgt}`).sort();
    expect(asLines(proposals.map((p) => ({ src: p.srcLine - 1, tgt: p.tgtLine - 1 })))).toEqual(asLines(expected));

    // a given threshold is kept, and said to be given
    done = jobOutcome(ctx);
    await api.invoke('mine.start', { srcFile, tgtFile, tokenization: 'pretokenized', head, threshold: 0.05 });
    await done;
    const runs = await api.invoke('mine.runs', {});
    expect(runs.find((r) => r.id !== run.id)).toMatchObject({ threshold: 0.05, thresholdSource: `given (siamese head ${head})` });

    // refused at once, in one line: no head there; a head whose encoder is gone
    await expect(api.invoke('mine.start', { srcFile, tgtFile, head: join(dir, 'none') })).rejects.toThrow(
      `${join(dir, 'none', 'config.json')}: missing`,
    );
    const moved = join(dir, 'head-moved');
    cpSync(head, moved, { recursive: true });
    const lost = join(dir, 'b2v-lost');
    cpSync(b2v, lost, { recursive: true });
    saveSiameseHead(moved, { head: weights, encoder: `bisent2vec:${lost}`, config: SIAMESE_DEFAULTS });
    rmSync(lost, { recursive: true });
    await expect(api.invoke('mine.start', { srcFile, tgtFile, head: moved })).rejects.toThrow(
      `${moved}: the encoder it was trained on (bisent2vec:${lost}) is not there`,
    );
    expect(await api.invoke('mine.runs', {})).toHaveLength(2);
    store.close();
  },
  300_000,
);
