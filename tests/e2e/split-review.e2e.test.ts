// Splitting a token the model had linked (ຂອງແຂງ of the Lao–Thai sample's first pair,
// aligned by IBM1): the suggestions show the halves' own text, no model link is copied onto
// either half, and the editor asks which half the model's link belongs to; the answer is a
// gold link on that half in the project file.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { committed, runJob, sampleProject } from './editor-fixture.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness('noy');
  await sampleProject(h.ctx, join(h.dir, 'split.mekong'));
  await runJob(h.ctx, 'align.start', { method: 'ibm1', sym: 'gdfa' });
  await h.page.reload();
});

afterAll(async () => {
  await h?.close();
});

test('a split token: suggestions in the halves’ text, its model links on neither half until the linguist places them', async () => {
  const { page } = h;
  await page.getByTestId('pair-list').locator('[role="row"]').first().click();
  await page.keyboard.press('Enter');
  await page.getByTestId('line-view').waitFor();
  const pairId = Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
  const before = committed(h.ctx, pairId);
  const index = before.srcTokens.findIndex((t) => t.text === 'ຂອງແຂງ');
  expect(index).toBeGreaterThan(0);
  const modelId = before.alignments.find((a) => a.alignmentId !== before.goldId)!.alignmentId;
  const modelOf = (p: typeof before, s: number) => p.alignments.find((a) => a.alignmentId === modelId)!.links.filter((l) => l.s === s);
  const targets = modelOf(before, index).map((l) => l.t);
  expect(targets.length).toBeGreaterThan(0);

  await page.locator(`[data-testid="line-view"] [data-side="src"][data-index="${index}"]`).click();
  await page.keyboard.press('Escape'); // the click selected it: only the cursor is wanted
  await page.keyboard.press('s');
  await page.getByRole('listbox', { name: 'Split point' }).waitFor();
  await page.keyboard.press('ArrowRight'); // after the third cluster: ຂອງ | ແຂງ
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const review = page.getByTestId('split-review');
  await review.waitFor();
  await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();
  await h.screenshot('split-review');

  const split = committed(h.ctx, pairId);
  expect([split.srcTokens[index].text, split.srcTokens[index + 1].text]).toEqual(['ຂອງ', 'ແຂງ']);
  expect(modelOf(split, index)).toEqual([]);
  expect(modelOf(split, index + 1)).toEqual([]);
  const shown = await page.getByTestId('suggestion').allTextContents();
  expect(shown.some((s) => s.includes('ຂອງແຂງ'))).toBe(false);
  for (const row of await page.getByTestId('suggestion').all()) {
    const [s] = (await row.getAttribute('data-link'))!.split('-').map(Number);
    expect(await row.locator('.pair > span').first().textContent()).toBe(split.srcTokens[s].text);
  }

  await review.getByRole('button', { name: 'ແຂງ' }).click();
  await review.waitFor({ state: 'detached' });
  await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();
  expect(
    committed(h.ctx, pairId)
      .gold.filter((l) => l.s === index + 1)
      .map((l) => l.t),
  ).toEqual(targets);
  expect(committed(h.ctx, pairId).gold.filter((l) => l.s === index)).toEqual([]);
});
