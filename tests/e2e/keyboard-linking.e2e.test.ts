// A keyboard-only pass through the linking loop, on the Lao–Thai sample aligned by IBM1:
// open a pair from the list, Home/End, ↓ onto the aligned token, a one-to-one link, a
// one-to-two link in four keys (Space, ↓, Shift+→, Space), a suggestion accepted from the
// list (one Tab stop, arrow keys inside), a note written and left with Esc, and Enter (twice,
// suggestions being open) to mark the pair done. No mouse event is sent; every check reads
// the project file.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { committed, linkKeys, runJob, sampleProject } from './editor-fixture.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await sampleProject(h.ctx, join(h.dir, 'keys.mekong'));
  await runJob(h.ctx, 'align.start', { method: 'ibm1', sym: 'gdfa' });
  await page.reload();
});

afterAll(async () => {
  await h?.close();
});

const press = async (...keys: string[]) => {
  for (const k of keys) await page.keyboard.press(k);
};
/** The cursor token as the line view marks it: "src:3". */
async function cursor(): Promise<string> {
  const el = page.locator('[data-testid="line-view"] .tok.cursor');
  return `${await el.getAttribute('data-side')}:${await el.getAttribute('data-index')}`;
}
/** What has the keyboard: its test id, else its role and label (run in the page, as a string: no DOM types here). */
const focused = () =>
  page.evaluate<string>(`(() => {
    const el = document.activeElement;
    return el?.dataset.testid ?? (el?.getAttribute('role') ?? el?.tagName) + ':' + (el?.getAttribute('aria-label') ?? '');
  })()`);
const editorHasKeys = async () => expect(await focused()).toMatch(/^grid:Links of pair/);

/** Presses Tab until `testid` has the keyboard; the number of presses it took. */
async function tabTo(testid: string, most = 12): Promise<number> {
  for (let n = 1; n <= most; n++) {
    await press('Tab');
    if ((await focused()) === testid) return n;
  }
  throw new Error(`${testid} never got the keyboard (last: ${await focused()})`);
}

test('a pair linked, reviewed, annotated and marked done with the keyboard alone', async () => {
  await tabTo('pair-list', 30);
  await press('ArrowDown', 'Enter');
  await page.getByTestId('line-view').waitFor();
  await editorHasKeys();
  const pairId = Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
  const start = committed(h.ctx, pairId);
  const [ns, nt] = [start.srcTokens.length, start.tgtTokens.length];
  const saved = () => page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();
  const gold = () => linkKeys(committed(h.ctx, pairId));

  // Home / End: the ends of the row.
  await press('End');
  expect(await cursor()).toBe(`src:${ns - 1}`);
  await press('Home');
  expect(await cursor()).toBe('src:0');

  // ↓ lands on the model's token for src 0 (no gold yet): its best suggestion.
  const model = start.alignments.find((a) => a.alignmentId !== start.goldId)!.links;
  const best = (s: number) => model.filter((l) => l.s === s).sort((a, b) => (b.score ?? 1) - (a.score ?? 1) || a.t - b.t)[0];
  const x = best(0).t;
  await press('Space', 'ArrowDown');
  expect(await cursor()).toBe(`tgt:${x}`);
  await press('Space'); // one-to-one
  await saved();
  expect(gold()).toEqual([`0-${x}`]);

  // ↑ goes back along the gold link; then one-to-two in four keys: Space, ↓, Shift+→, Space.
  await press('ArrowUp');
  expect(await cursor()).toBe('src:0');
  await press('ArrowRight');
  expect(await cursor()).toBe('src:1');
  await press('Space', 'ArrowDown');
  const y = Number((await cursor()).split(':')[1]);
  expect(y).toBeLessThan(nt - 1);
  await press('Shift+ArrowRight', 'Space');
  await saved();
  expect(gold()).toEqual([`0-${x}`, `1-${y}`, `1-${y + 1}`]);
  await h.screenshot('keyboard-linking-one-to-two');

  // End on the target side, then Home.
  await press('End');
  expect(await cursor()).toBe(`tgt:${nt - 1}`);
  await press('Home');
  expect(await cursor()).toBe('tgt:0');

  // The suggestion list is one Tab stop; ↓ chooses, Enter accepts; the next Tab leaves the list.
  const open = await page.getByTestId('suggestion').count();
  expect(open).toBeGreaterThan(2);
  expect(await tabTo('suggestion-list')).toBeLessThanOrEqual(4);
  await press('ArrowDown');
  const chosen = (await page.locator('[data-testid="suggestion"].active').getAttribute('data-link'))!;
  expect(chosen).toBe(await page.getByTestId('suggestion').nth(1).getAttribute('data-link'));
  await h.screenshot('keyboard-linking-suggestion-list');
  await press('Enter');
  await saved();
  expect(gold()).toContain(chosen);
  expect(await focused()).toBe('suggestion-list');
  await press('Escape');
  await editorHasKeys();

  // The note: Tab past the list (one stop) and the tags' Edit… button; Esc saves it and gives the keys back.
  await tabTo('suggestion-list');
  expect(await tabTo('pair-note', 2)).toBe(2);
  await page.keyboard.type('ຂອງ: possessive, linked to the Thai noun');
  await press('Escape');
  await editorHasKeys();
  await saved();
  expect(committed(h.ctx, pairId).note).toBe('ຂອງ: possessive, linked to the Thai noun');
  await press('ArrowRight'); // keys work in the editor again
  expect(await cursor()).toBe('tgt:1');

  // Enter: suggestions are open, so a warning first; Enter again marks the pair done and opens the next.
  await press('Enter');
  await page
    .getByTestId('editor-warning')
    .filter({ hasText: /still open\. Press Enter again/ })
    .waitFor();
  await h.screenshot('keyboard-linking-warning');
  await press('Enter');
  await expect.poll(async () => Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''))).not.toBe(pairId);
  await saved();
  const done = committed(h.ctx, pairId);
  expect(done.status).toBe('done');
  expect(linkKeys(done)).toEqual(expect.arrayContaining([`0-${x}`, `1-${y}`, `1-${y + 1}`, chosen]));

  // The help lists the keys of this loop.
  await press('?');
  const help = page.getByRole('dialog', { name: 'Editor shortcuts' });
  await help.getByText('Space, ↓, Shift+→, Space links one token to two').waitFor();
  await help.getByText('Home / End').waitFor();
  await h.screenshot('keyboard-linking-help');
  expect(h.pageErrors, h.pageErrors.join('\n')).toEqual([]);
});
