// Sentence-level curation in browser mode: a project of 600 en–de news pairs (every tenth
// given another pair's target; ../shared/data's bench-corpora) is scored from the pair
// list's "Score parallelism…", the flagged pairs are shown alone with their scores, listed
// least parallel first, excluded in one action, then listed alone and included again.
// Every check reads the store.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import { beginImport, finishImport } from '../../src/main/store/imports.ts';
import { pairInserter } from '../../src/main/store/pairs.ts';
import { encodeOffsets } from '../../src/main/text/offsets.ts';
import { pretokenized } from '../../src/main/text/segment.ts';
import { startHarness, type Harness } from './harness.ts';

const CORPORA = join(import.meta.dirname, '../../../shared/data/bench-corpora');
const N = 600;
let h: Harness;
let page: Page;

describe.runIf(existsSync(join(CORPORA, 'uniq39k.en')))('sentence-level curation', () => {
  beforeAll(async () => {
    h = await startHarness('kham');
    page = h.page;
    const lines = (side: string) =>
      readFileSync(join(CORPORA, `uniq39k.${side}`), 'utf8')
        .split('\n')
        .slice(0, N);
    const en = lines('en'),
      de = lines('de');
    const store = ProjectStore.create(join(h.dir, 'curation.mekong'), { name: 'News', srcLang: 'en', tgtLang: 'de' });
    const importId = beginImport(store.db, 'news.tsv', 'tsv');
    const pairs = en.map((s, k) => {
      const t = k % 10 === 3 ? de[(k + N / 2) % N] : de[k];
      return { src: s, tgt: t, srcOffsets: encodeOffsets(pretokenized(s)), tgtOffsets: encodeOffsets(pretokenized(t)) };
    });
    store.db.transaction(() => pairInserter(store.db, importId)(pairs))();
    finishImport(store.db, importId, true);
    h.ctx.store = store;
    await page.reload();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('scores the pairs, shows the misaligned ones least parallel first and excludes them', async () => {
    await page.getByRole('button', { name: 'Score parallelism…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Score parallelism' });
    await dialog.getByRole('button', { name: 'Score', exact: true }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 120_000 });
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    const threshold = h.ctx.store!.info().parallelismThreshold!;
    expect(threshold).not.toBeNull();

    await page.getByLabel('Misaligned only').check();
    await page.getByLabel('Least parallel first').check();
    const rows = page.getByTestId('pair-list').locator('[role="row"]');
    await rows.first().locator('[data-testid="parallelism"]').waitFor();
    const flagged = h.ctx.store!.countPairs({ misaligned: true });
    await expect.poll(() => page.getByTestId('match-count').textContent()).toContain(`${flagged}`);
    const shown = (await rows.locator('[data-testid="parallelism"]').allTextContents()).map((t) => Number(t.replace('⚑', '').trim()));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    for (const x of shown) expect(x).toBeLessThan(threshold + 0.005);
    expect(await rows.first().locator('[data-testid="parallelism"]').getAttribute('title')).toMatch(
      /best other candidate: the (target|source) of pair #\d+/,
    );
    await h.screenshot('24-curation-misaligned');

    await page.getByRole('button', { name: `Exclude these ${flagged}` }).click();
    await page
      .getByRole('dialog', { name: 'Exclude pairs' })
      .getByRole('button', { name: `Exclude ${flagged} pairs` })
      .click();
    await expect.poll(() => h.ctx.store!.info().excluded).toBe(flagged);
    await rows.first().getByText('excluded').waitFor();

    // The excluded pairs listed alone, and included again.
    await page.getByLabel('Misaligned only').uncheck();
    await page.getByLabel('Excluded only').check();
    await expect.poll(() => page.getByTestId('match-count').textContent()).toMatch(new RegExp(`^${flagged} pairs? match`));
    await page.getByRole('button', { name: `Include these ${flagged} again` }).click();
    await page
      .getByRole('dialog', { name: 'Include pairs again' })
      .getByRole('button', { name: `Include ${flagged} pairs` })
      .click();
    await expect.poll(() => h.ctx.store!.info().excluded).toBe(0);
  });
});
