// Segmentation fixes that are not lost, end to end in browser mode on the Lao–Thai sample:
// a merge made in the editor stays in the Re-segment dialog's "Pending segmentation fixes"
// after the page is reloaded, and is applied (or dismissed) from there; a word list file is
// added from the dialog (its word count shown) and the preview lists the pairs it would
// change, tokens before and after; the words a run learned from the corpus are listed there
// and one is removed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fixOccurrences } from '../../src/main/review/segmentation-bulk.ts';
import { iteratePairRows, tokensOf } from '../../src/main/store/pairs.ts';
import { startHarness, type Harness } from './harness.ts';
import { committed, sampleProject } from './editor-fixture.ts';
import { dbOf } from '../../src/main/store/connection.ts';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await sampleProject(h.ctx, join(h.dir, 'pending.mekong'));
  await page.reload();
});

afterAll(async () => {
  await h?.close();
});

/** Opens pair `row` of the list in the editor; answers its id. */
async function openPair(row: number): Promise<number> {
  await page.getByRole('tab', { name: 'Pairs' }).click();
  await page.getByTestId('pair-list').locator('[role="row"]').nth(row).click();
  await page.keyboard.press('Enter');
  await page.getByTestId('line-view').waitFor();
  return Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
}

/** Merges the source neighbours of pair `pairId` that occur most often elsewhere; answers the merge and its other occurrences. */
async function mergeMostFrequent(pairId: number, not?: { left: string; right: string }) {
  const store = h.ctx.store!;
  const tokens = committed(h.ctx, pairId).srcTokens;
  const spec = (i: number) => ({
    kind: 'merge' as const,
    left: tokens[i].text,
    right: tokens[i + 1].text,
    spaced: tokens[i].end !== tokens[i + 1].start,
  });
  const same = (i: number) => not !== undefined && tokens[i].text === not.left && tokens[i + 1].text === not.right;
  const others = (i: number) => (same(i) ? [] : fixOccurrences(store, 'src', spec(i)).filter((o) => o.pairId !== pairId));
  const at = tokens
    .slice(0, -1)
    .map((_, i) => i)
    .reduce((best, i) => (others(i).length > others(best).length ? i : best), 0);
  const tok = page.locator(`[data-testid="line-view"] [data-side="src"][data-index="${at}"]`);
  await tok.click({ modifiers: ['Shift'] });
  await tok.click({ modifiers: ['Shift'] });
  await page.keyboard.press('m');
  await expect.poll(() => committed(h.ctx, pairId).srcTokens.length).toBe(tokens.length - 1);
  return { fix: spec(at), others: others(at) };
}

describe('segmentation fixes kept and word lists from the app', () => {
  it('a merge stays pending after a reload, then is applied from the list; another is dismissed', async () => {
    const pairId = await openPair(0);
    const { fix, others } = await mergeMostFrequent(pairId);
    expect(others.length).toBeGreaterThan(1);
    await expect.poll(() => page.getByTestId('segmentation-offer').textContent()).toContain(`${others.length} other occurrence`);
    // A second fix, on another pair, to dismiss.
    const second = await openPair(1);
    const other = await mergeMostFrequent(second, fix);
    expect(other.others.length).toBeGreaterThan(0);

    await page.reload();
    await page.getByTestId('pair-list').waitFor();
    await expect.poll(() => page.getByTestId('segmentation-offer').count()).toBe(0);
    await page.getByRole('button', { name: 'Re-segment…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Re-segment the project' });
    const rows = dialog.getByTestId('pending-fix');
    await expect.poll(() => rows.count()).toBe(2);
    const label = `${fix.left} + ${fix.right} → ${fix.left}${fix.spaced ? ' ' : ''}${fix.right}`;
    const first = rows.filter({ hasText: label });
    await expect.poll(() => first.textContent()).toContain(`${others.length} other occurrence`);
    await expect.poll(() => first.textContent()).toContain(`on #${pairId} by noy`);
    await h.screenshot('70-pending-segmentation-fixes');

    await first.getByRole('button', { name: 'Review and apply…' }).click();
    const review = page.getByRole('dialog', { name: /^Apply / });
    await expect.poll(() => review.getByRole('checkbox').count()).toBe(Math.min(200, others.length));
    await review.getByTestId('segmentation-offer-apply').click();
    await review.waitFor({ state: 'detached' });
    await expect.poll(() => fixOccurrences(h.ctx.store!, 'src', fix).length).toBe(0);
    await expect.poll(() => rows.count()).toBe(1);

    await rows.first().getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => dialog.getByTestId('pending-fixes').textContent()).toContain('None');
    // The dismissed fix is not applied: its other occurrences keep their tokens.
    expect(fixOccurrences(h.ctx.store!, 'src', other.fix).length).toBe(other.others.length);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    expect(h.pageErrors).toEqual([]);
  });

  it('a word list file added in the Re-segment dialog: its words counted, the preview lists the pairs before and after', async () => {
    // A word the sample's Lao side cuts in two: two neighbouring tokens written together.
    const store = h.ctx.store!;
    let word = '';
    for (const rows of iteratePairRows(store, {}, 500)) {
      for (const r of rows) {
        const t = tokensOf(r.src_text, r.src_tokens, r.id, 'src');
        const i = t.findIndex(
          (x, k) => k + 1 < t.length && x.end === t[k + 1].start && /\p{L}/u.test(t[k + 1].text) && /\p{L}/u.test(x.text),
        );
        if (i >= 0 && !word) word = r.src_text.slice(t[i].start, t[i + 1].end);
      }
    }
    expect(word).not.toBe('');
    const file = join(h.dir, 'lao-words.txt');
    writeFileSync(file, `# words of the sample\n${word}\nສະບາຍດີ\nຂອບໃຈຫລາຍ\n`);

    await page.getByRole('button', { name: 'Re-segment…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Re-segment the project' });
    const lists = dialog.getByTestId('word-lists');
    await lists.getByLabel('Word list file: path').fill(file);
    await lists.getByRole('button', { name: 'Add word list' }).click();
    await expect.poll(() => lists.getByTestId('word-list-file').textContent()).toMatch(/lao-words\.txt: 3 words, for the source side/);
    await h.screenshot('71-word-list-added');

    await dialog.getByRole('button', { name: 'Preview' }).click();
    const changes = dialog.getByTestId('resegment-change');
    await expect.poll(() => changes.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    // The listed word is one highlighted token after, more than one before, in some listed pair.
    const merged = page.getByTestId('after').locator('.tok.changed', { hasText: new RegExp(`^${word}$`) });
    await expect.poll(() => dialog.locator(merged).count()).toBeGreaterThan(0);
    const pair = changes.filter({ has: merged }).first();
    expect(await pair.getByTestId('before').locator('.tok.changed').count()).toBeGreaterThan(1);
    await h.screenshot('72-resegment-preview-pairs');
    // A preview keeps nothing: the word is not in the project's lists yet.
    expect(dbOf(store).prepare('SELECT count(*) FROM word_list WHERE word = ?').pluck().get(word)).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    expect(h.pageErrors).toEqual([]);
  });

  it('"Keep recurring names whole": the learned words are listed in the dialog, and one is removed from the word list', async () => {
    const store = h.ctx.store!;
    const learned = () =>
      dbOf(store).prepare("SELECT word FROM word_list WHERE added_by = 'learned from the corpus' ORDER BY word").pluck().all() as string[];
    expect(learned()).toEqual([]);
    await page.getByRole('button', { name: 'Re-segment…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Re-segment the project' });
    await expect(dialog.getByTestId('learned-words').count()).resolves.toBe(0);
    await dialog.getByLabel('Keep recurring names whole (learn words from the corpus)').check();
    await dialog.getByRole('button', { name: 'Re-segment', exact: true }).click();
    await expect.poll(() => learned().length, { timeout: 120_000 }).toBeGreaterThan(0);
    const words = learned();
    // The run's end may close the dialog (the project is read again): open it again to see the list.
    await page.getByRole('button', { name: 'Re-segment…' }).waitFor();
    if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Re-segment…' }).click();
    const list = dialog.getByTestId('learned-words');
    await list.locator('summary').click();
    await expect.poll(() => list.getByTestId('learned-word').count()).toBe(words.length);
    await expect(list.locator('summary').textContent()).resolves.toBe(`Words learned from the corpus (${words.length})`);
    const gone = (await list.getByTestId('learned-word').first().locator('.word').textContent())!;
    await list.getByRole('button', { name: `Remove ${gone}` }).click();
    await expect.poll(() => learned()).toEqual(words.filter((w) => w !== gone));
    await expect(list.getByTestId('learned-removed').textContent()).resolves.toMatch(
      new RegExp(`Removed ${gone}: pairs keep these tokens whole`),
    );
    expect(await list.getByTestId('learned-word').count()).toBe(words.length - 1);
    await h.screenshot('73-learned-words');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    expect(h.pageErrors).toEqual([]);
  });
});
