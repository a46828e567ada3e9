// The pair list with a corpus far beyond what a page can hold as DOM: 150,000 pairs
// (taller than the scroll height the list allows, so the scaled scrollbar is in use).
// Only the rows in view exist, pages load as the view moves, and row positions map to
// the right pairs at the top, the middle and the very end.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/main/api/dispatch.ts';
import { startHarness, type Harness } from './harness.ts';

const PAIRS = 150_000;
let h: Harness;
let corpus: string;

/** Scrolls the pair list to a fraction of its height and waits until the rows in view are loaded. */
async function scrollTo(fraction: number): Promise<number[]> {
  await h.page.evaluate(`(() => {
    const el = document.querySelector('[data-testid="pair-list"]');
    el.scrollTop = (el.scrollHeight - el.clientHeight) * ${fraction};
    return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  })()`);
  const rows = h.page.getByTestId('pair-list').locator('[role="row"]');
  await rows.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
  const ids = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-pair-id'))));
  return ids.sort((a, b) => a - b);
}

beforeAll(async () => {
  h = await startHarness();
  const file = (corpus = join(h.dir, 'large.tsv'));
  const lines = Array.from({ length: PAIRS }, (_, i) => `${i + 1} ສະບາຍ ດີ ປີ ໃໝ່\tสวัสดี ปี ใหม่ ${i + 1}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  expect(
    (await dispatch(h.ctx, 'project.create', { path: join(h.dir, 'large.mekong'), name: 'Large', srcLang: 'lo', tgtLang: 'th' })).ok,
  ).toBe(true);
  const finished = new Promise<string>((resolve) => h.ctx.jobs.onEvent((e) => e.type !== 'job.progress' && resolve(e.type)));
  expect((await dispatch(h.ctx, 'import.start', { file, format: 'tsv', header: false, tokenization: 'pretokenized' })).ok).toBe(true);
  expect(await finished).toBe('job.done');
  await h.page.reload();
});

afterAll(async () => {
  await h?.close();
});

describe('a 150,000-pair corpus', () => {
  it('keeps only the rows in view in the DOM and finds the right pairs anywhere', async () => {
    await h.page.getByTestId('match-count').filter({ hasText: '150,000 pairs' }).waitFor();
    const top = await scrollTo(0);
    expect(top[0]).toBe(1);
    expect(top.length).toBeLessThan(30);

    const middle = await scrollTo(0.5);
    expect(middle.length).toBeLessThan(30);
    expect(middle[0]).toBeGreaterThan(PAIRS / 2 - 30);
    expect(middle.at(-1)).toBeLessThan(PAIRS / 2 + 30);
    // Consecutive pairs, each row showing its own tokens.
    expect(middle.every((id, i) => i === 0 || id === middle[i - 1] + 1)).toBe(true);
    const firstToken = await h.page.locator(`[data-pair-id="${middle[5]}"] [data-testid="tokens-lo"] .tok`).first().textContent();
    expect(firstToken).toBe(String(middle[5]));

    const end = await scrollTo(1);
    expect(end.at(-1)).toBe(PAIRS);
    await h.screenshot('09-large-end');
  });

  it('moves by keyboard to the last pair and back', async () => {
    await h.page.getByTestId('pair-list').focus();
    await h.page.keyboard.press('Home');
    await h.page.getByTestId('pair-detail').getByRole('heading', { name: 'Pair #1' }).waitFor();
    await h.page.keyboard.press('End');
    await h.page
      .getByTestId('pair-detail')
      .getByRole('heading', { name: `Pair #${PAIRS}` })
      .waitFor();
    await h.page.keyboard.press('PageUp');
    await h.page.keyboard.press('ArrowUp');
    const heading = await h.page.getByTestId('pair-detail').getByRole('heading', { level: 2 }).textContent();
    expect(Number(heading?.replace('Pair #', ''))).toBeLessThan(PAIRS - 1);
    expect(h.pageErrors).toEqual([]);
  });

  it('cancels a long import from its dialog and keeps the project as it was', async () => {
    const { page } = h;
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a corpus' });
    await dialog.getByLabel('Format').selectOption('tsv');
    await dialog.getByLabel('First line').selectOption({ label: 'a sentence pair' });
    await dialog.getByLabel('Corpus file: path').fill(corpus);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="running"]').waitFor();
    await dialog.getByText(/^\d+%$/).waitFor();
    await h.screenshot('10-import-running');
    await dialog.getByRole('button', { name: 'Cancel import' }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="cancelled"]').waitFor();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByTestId('count-total').textContent()).resolves.toBe('150,000');
  });
});
