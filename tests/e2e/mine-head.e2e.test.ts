// Mining with a saved siamese head from the Mine dialog, in browser mode: a Bi-Sent2Vec
// model and a seed 004 head trained on it (300 Multi30k en–fr pairs, ../shared/data's
// bench-corpora) are saved as model folders; the project holds those pairs and 100 more as
// its dev split. The linguist picks "A saved siamese head", types its folder, and mines two
// monolingual files hiding 40 translation pairs among 40 lone sentences a side; the run's
// threshold comes from the head on the dev pairs and its proposals are mostly the hidden
// pairs. A folder that is no head is refused in the dialog in one line. The head applied is
// then listed on the Models page with its encoder, settings and recorded test retrieval; "Use"
// picks it, and Score parallelism (the same head field) scores every pair by the cosine of its
// sides' vectors through it, the shuffled pairs lowest. Every check reads the store.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import { beginImport, finishImport } from '../../src/main/store/imports.ts';
import { pairInserter } from '../../src/main/store/pairs.ts';
import { encodeOffsets } from '../../src/main/text/offsets.ts';
import { pretokenized } from '../../src/main/text/segment.ts';
import { dbOf } from '../../src/main/store/connection.ts';
import { trainBisent2vec } from '../../src/main/models/bisent2vec/parallel-train.ts';
import { saveBisent2vec } from '../../src/main/models/bisent2vec/bisent2vec-folder.ts';
import { trainSiameseHead } from '../../src/main/models/siamese/head.ts';
import { openSentenceEncoder } from '../../src/main/models/siamese/sentence-encoders.ts';
import { saveSiameseHead } from '../../src/main/models/siamese/siamese-folder.ts';
import { SIAMESE_DEFAULTS } from '../../src/shared/aligner-defaults.ts';
import { M30K_AVAILABLE, m30kPairs } from '../unit/models/siamese/bench-pairs.ts';
import { startHarness, type Harness } from './harness.ts';

const LEARNT = 300,
  DEV = 100,
  HIDDEN = 40,
  LONE = 40;
let h: Harness;
let page: Page;
let head: string;
const shuffled = (k: number) => k < LEARNT && k % 10 === 3;
const pairs = M30K_AVAILABLE ? m30kPairs(LEARNT + DEV + HIDDEN + 2 * LONE) : { src: [], tgt: [] };

describe.runIf(M30K_AVAILABLE)('mining with a saved siamese head', () => {
  beforeAll(async () => {
    h = await startHarness('kham');
    page = h.page;
    const { model } = await trainBisent2vec(
      pairs.src.slice(0, LEARNT),
      pairs.tgt.slice(0, LEARNT),
      { minCount: 1, dim: 32, epochs: 20 },
      { threads: 1 },
    );
    const b2v = join(h.dir, 'b2v');
    saveBisent2vec(b2v, model);
    const enc = openSentenceEncoder('bisent2vec', b2v);
    const config = { ...SIAMESE_DEFAULTS, epochs: 5, lr: 1e-3 };
    const trained = await trainSiameseHead(
      await enc.embed(0, pairs.src.slice(0, LEARNT)),
      await enc.embed(1, pairs.tgt.slice(0, LEARNT)),
      32,
      config,
    );
    head = join(h.dir, 'head-fr');
    saveSiameseHead(head, {
      head: trained.head,
      encoder: `bisent2vec:${b2v}`,
      config,
      retrieval: { pairs: 100, p1: { srcTgt: 0.41, tgtSrc: 0.39 }, p5: { srcTgt: 0.72, tgtSrc: 0.7 } },
    });

    const store = ProjectStore.create(join(h.dir, 'mine-head.mekong'), { name: 'Captions', srcLang: 'en', tgtLang: 'fr' });
    const importId = beginImport(store, 'captions.tsv', 'tsv');
    // every tenth training-split pair (shuffled(k)) has the target of the pair 150 further on: the pairs Score should rank lowest
    const rows = pairs.src.slice(0, LEARNT + DEV).map((s, k) => {
      const [src, tgt] = [s.join(' '), pairs.tgt[shuffled(k) ? (k + 150) % LEARNT : k].join(' ')];
      return { src, tgt, srcOffsets: encodeOffsets(pretokenized(src)), tgtOffsets: encodeOffsets(pretokenized(tgt)) };
    });
    const ids = store.transaction(() => pairInserter(store, importId)(rows));
    finishImport(store, importId, true);
    dbOf(store)
      .prepare(`UPDATE pairs SET split = 'dev' WHERE id IN (${ids.slice(LEARNT).join(',')})`)
      .run();
    h.ctx.store = store;
    await page.reload();
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  it('picks the head in the Mine dialog and mines with it', async () => {
    // the hidden pairs first on the source side, last on the target side; lone sentences distinct per side
    const base = LEARNT + DEV;
    const line = (side: string[][], from: number, n: number) => side.slice(from, from + n).map((w) => w.join(' '));
    const srcFile = join(h.dir, 'comparable.en'),
      tgtFile = join(h.dir, 'comparable.fr');
    writeFileSync(srcFile, [...line(pairs.src, base, HIDDEN), ...line(pairs.src, base + HIDDEN, LONE)].join('\n') + '\n');
    writeFileSync(tgtFile, [...line(pairs.tgt, base + HIDDEN + LONE, LONE), ...line(pairs.tgt, base, HIDDEN)].join('\n') + '\n');

    await page.getByRole('tab', { name: 'Mining' }).click();
    await page.getByRole('button', { name: 'Mine pairs…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mine pairs from monolingual text' });
    await dialog.getByLabel('Source-language file (en): path').fill(srcFile);
    await dialog.getByLabel('Target-language file (fr): path').fill(tgtFile);
    await dialog.getByLabel('Pre-tokenized (split on spaces)').check();
    await dialog.getByLabel('A saved siamese head on the sentence encoder it was trained on').check();
    const mine = dialog.getByRole('button', { name: 'Mine', exact: true });
    expect(await mine.isDisabled()).toBe(true); // no folder yet

    // a folder that is no head: one line in the dialog, no run
    await dialog.getByLabel('Siamese head folder').fill(join(h.dir, 'nothing-here'));
    await mine.click();
    await dialog.getByText(`${join(h.dir, 'nothing-here', 'config.json')}: missing`).waitFor();
    expect(dbOf(h.ctx.store!).prepare('SELECT count(*) AS n FROM mine_runs').get()).toEqual({ n: 0 });

    // the error named the old folder: a new one withdraws it
    await dialog.getByLabel('Siamese head folder').fill(head);
    await dialog.getByText('nothing-here').waitFor({ state: 'detached' });
    await h.screenshot('mine-dialog-siamese-head');
    await mine.click();
    await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 120_000 });
    await h.screenshot('mine-dialog-siamese-head-done');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();

    const run = dbOf(h.ctx.store!).prepare('SELECT id, threshold_source FROM mine_runs').get() as { id: number; threshold_source: string };
    expect(run.threshold_source).toMatch(new RegExp(`^siamese head ${head}: best F1 on ${DEV} dev/test project pairs`));
    const proposals = dbOf(h.ctx.store!).prepare('SELECT src_line, tgt_line FROM mine_proposals WHERE run_id = ?').all(run.id) as {
      src_line: number;
      tgt_line: number;
    }[];
    // source line k (1-based, k ≤ HIDDEN) has its translation on target line LONE + k
    const right = proposals.filter((p) => p.src_line <= HIDDEN && p.tgt_line === LONE + p.src_line).length;
    expect(proposals.length).toBeGreaterThan(10);
    expect(right / proposals.length).toBeGreaterThan(0.5); // chance: 1 in 80
    await page.getByTestId('mine-counts').waitFor();
    await h.screenshot('mining-view-siamese-head');
  }, 240_000);

  it('lists the head on the Models page, picks it there and scores parallelism with it', async () => {
    await page.getByRole('tab', { name: 'Models' }).click();
    const listed = page.getByTestId('siamese-head');
    await listed.waitFor();
    expect(await listed.count()).toBe(1);
    const text = await listed.innerText();
    for (const part of [
      'head-fr',
      'bisent2vec:b2v',
      'hard negatives · 5 epochs · lr 0.001',
      'P@1 0.410 / 0.390 · P@5 0.720 / 0.700 on 100 test pairs',
    ])
      expect(text).toContain(part);
    const use = listed.getByRole('button', { name: 'Use head head-fr in Mine and Score' });
    await use.click();
    await listed.locator('button[aria-pressed="true"]', { hasText: 'In use' }).waitFor();
    await h.screenshot('models-siamese-heads');

    await page.getByRole('tab', { name: 'Pairs' }).click();
    await page.getByRole('button', { name: 'Score parallelism…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Score parallelism' });
    // the head picked on the Models page fills the field, and the recorded heads are offered
    expect(await dialog.getByLabel('A saved siamese head on the sentence encoder it was trained on').isChecked()).toBe(true);
    expect(await dialog.getByLabel('Siamese head folder').inputValue()).toBe(head);
    await dialog.getByLabel('Recorded siamese heads').locator('option', { hasText: 'head-fr' }).waitFor({ state: 'attached' });
    await h.screenshot('score-dialog-siamese-head');
    await dialog.getByRole('button', { name: 'Score', exact: true }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 120_000 });
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();

    const store = h.ctx.store!;
    const threshold = store.info().parallelismThreshold!;
    expect(threshold).not.toBeNull();
    const scored = store.listPairs({}, 0, LEARNT + DEV).pairs;
    expect(scored.every((p) => p.parallelism !== null)).toBe(true);
    // the shuffled pairs score under the kept ones
    const scoreOf = (bad: boolean) => scored.filter((_, k) => shuffled(k) === bad).map((p) => p.parallelism!.score);
    const kept = scoreOf(false);
    const under = scoreOf(true).reduce((a, b) => a + kept.filter((g) => b < g).length, 0);
    expect(under / (kept.length * scoreOf(true).length)).toBeGreaterThan(0.8);
    await page.getByLabel('Misaligned only').check();
    await page.getByLabel('Least parallel first').check();
    await h.screenshot('pairs-scored-siamese-head');
    // the one refusal of the first test is the only failed request
    expect(h.pageErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  }, 240_000);
});
