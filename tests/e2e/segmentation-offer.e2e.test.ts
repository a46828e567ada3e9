// A merge in the editor offered for the rest of the corpus, end to end in browser mode on
// the Lao–Thai sample: the bar names the other occurrences without taking the keyboard,
// "Review and apply…" lists them, the kept ones are merged, and one Ctrl+Z reverses them all.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fixOccurrences } from '../../src/main/review/segmentation-bulk.ts';
import { startHarness, type Harness } from './harness.ts';
import { committed, sampleProject } from './editor-fixture.ts';
import { dbOf } from '../../src/main/store/connection.ts';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await sampleProject(h.ctx, join(h.dir, 'offer.mekong'));
  await page.reload();
});

afterAll(async () => {
  await h?.close();
});

describe('segmentation fix offered corpus-wide', () => {
  it('merges two tokens, then the same two tokens in the kept pairs, undone by one Ctrl+Z', async () => {
    await page.getByTestId('pair-list').locator('[role="row"]').first().click();
    await page.keyboard.press('Enter');
    await page.getByTestId('line-view').waitFor();
    const pairId = Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
    const store = h.ctx.store!;
    // The neighbours of this pair's source side that occur most often elsewhere.
    const tokens = committed(h.ctx, pairId).srcTokens;
    const spec = (i: number) => ({
      kind: 'merge' as const,
      left: tokens[i].text,
      right: tokens[i + 1].text,
      spaced: tokens[i].end !== tokens[i + 1].start,
    });
    const others = (i: number) => fixOccurrences(store, 'src', spec(i)).filter((o) => o.pairId !== pairId);
    const at = tokens
      .slice(0, -1)
      .map((_, i) => i)
      .reduce((best, i) => (others(i).length > others(best).length ? i : best), 0);
    const expected = others(at);
    expect(expected.length).toBeGreaterThan(1);

    const tok = page.locator(`[data-testid="line-view"] [data-side="src"][data-index="${at}"]`);
    await tok.click({ modifiers: ['Shift'] });
    await tok.click({ modifiers: ['Shift'] });
    await page.keyboard.press('m');
    await expect.poll(() => committed(h.ctx, pairId).srcTokens.length).toBe(tokens.length - 1);
    const offer = page.getByTestId('segmentation-offer');
    await expect.poll(() => offer.textContent()).toContain(`${expected.length} other occurrence`);
    // The keyboard stays with the editor: Ctrl+Z undoes the merge, Ctrl+Shift+Z redoes it.
    await page.keyboard.press('Control+z');
    await expect.poll(() => committed(h.ctx, pairId).srcTokens.length).toBe(tokens.length);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => committed(h.ctx, pairId).srcTokens.length).toBe(tokens.length - 1);

    await h.screenshot('30-segmentation-offer');
    await offer.getByRole('button', { name: 'Review and apply…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Apply / });
    await expect.poll(() => dialog.getByRole('checkbox').count()).toBe(Math.min(200, expected.length));
    await dialog.getByRole('checkbox').first().uncheck();
    await h.screenshot('31-segmentation-offer-dialog');
    await dialog.getByTestId('segmentation-offer-apply').click();
    await dialog.waitFor({ state: 'detached' });
    const [dropped, ...fixed] = expected;
    const word = (tokens[at].text + (spec(at).spaced ? ' ' : '') + tokens[at + 1].text).toLowerCase();
    // Per pair: one token fewer and one more merged word for each kept occurrence in it.
    const byPair = new Map<number, { tokens: number; merged: number }>();
    for (const o of expected) {
      const before = byPair.get(o.pairId) ?? {
        tokens: o.tokens.length,
        merged: o.tokens.filter((t) => t.text.toLowerCase() === word).length,
      };
      byPair.set(o.pairId, o === dropped ? before : { tokens: before.tokens - 1, merged: before.merged + 1 });
    }
    const now = (id: number) => {
      const t = committed(h.ctx, id).srcTokens;
      return { tokens: t.length, merged: t.filter((x) => x.text.toLowerCase() === word).length };
    };
    await expect.poll(() => [...byPair.keys()].map(now)).toEqual([...byPair.values()]);
    expect(fixed.length).toBe(expected.length - 1);
    await h.screenshot('32-segmentation-offer-applied');

    await page.keyboard.press('Control+z');
    await expect.poll(() => expected.every((o) => committed(h.ctx, o.pairId).srcTokens.length === o.tokens.length)).toBe(true);
    expect(committed(h.ctx, pairId).srcTokens.length).toBe(tokens.length - 1);
    expect(h.pageErrors).toEqual([]);
  });

  it('Re-segment…: a preview, then the run merges what the word list learned everywhere', async () => {
    const store = h.ctx.store!;
    const listed = dbOf(store).prepare('SELECT word FROM word_list').pluck().all() as string[];
    expect(listed.some((w) => w.includes(' '))).toBe(true);
    const [left, right] = listed.find((w) => w.includes(' '))!.split(' ');
    const left_ = () => fixOccurrences(store, 'src', { kind: 'merge', left, right, spaced: true }).length;
    expect(left_()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Re-segment…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Re-segment the project' });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => dialog.getByTestId('job-progress').textContent()).toMatch(/would re-segment 265 pairs: \d+ changed/);
    expect(left_()).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Re-segment', exact: true }).click();
    await expect.poll(() => dialog.getByTestId('job-progress').textContent()).toMatch(/re-segmented 265 pairs: \d+ changed/);
    await h.screenshot('33-resegment-done');
    expect(left_()).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    expect(h.pageErrors).toEqual([]);
  });
});
