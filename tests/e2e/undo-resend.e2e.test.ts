// An undo whose answer is lost: the server runs it, then the connection drops before the page
// hears back, so the editor sends it again once the server answers. The re-send carries the
// first send's request id, so the project file shows exactly one edit taken back, and the
// page draws what the file holds.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { committed, linkKeys, sampleProject } from './editor-fixture.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
/** Undo calls the page sent, and how many of them the server ran with the answer then dropped. */
const undos: string[] = [];
let dropped = 0;

beforeAll(async () => {
  h = await startHarness('noy');
  await sampleProject(h.ctx, join(h.dir, 'undo-resend.mekong'));
  await h.page.route('**/api/edits.undo', async (route) => {
    undos.push((await route.request().allHeaders())['x-mekong-request'] ?? '');
    if (dropped > 0) return route.continue();
    // the server runs the undo; its answer never reaches the page
    await route.fetch();
    dropped++;
    await route.abort('connectionreset');
  });
  await h.page.reload();
});

afterAll(async () => {
  await h?.close();
});

test('an undo sent again after its answer was lost is applied once', async () => {
  const { page } = h;
  await page.getByTestId('pair-list').locator('[role="row"]').first().click();
  await page.keyboard.press('Enter');
  await page.getByTestId('line-view').waitFor();
  const pairId = Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
  const tok = (side: string, i: number) => page.locator(`[data-testid="line-view"] [data-side="${side}"][data-index="${i}"]`);
  const drawn = () =>
    page.locator('[data-testid="line-view"] path.gold').evaluateAll((els) => els.map((e) => e.getAttribute('data-link')).sort());
  for (const i of [0, 1]) {
    await tok('src', i).click();
    await tok('tgt', i).click();
    await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();
  }
  expect(linkKeys(committed(h.ctx, pairId))).toEqual(['0-0', '1-1']);

  await page.getByRole('button', { name: 'Undo' }).click();
  // the first send ran on the server and its answer was dropped: the editor is offline, then sends again
  await expect.poll(() => dropped).toBe(1);
  expect(linkKeys(committed(h.ctx, pairId))).toEqual(['0-0']);
  await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor({ timeout: 30_000 });
  expect(linkKeys(committed(h.ctx, pairId))).toEqual(['0-0']);
  expect(undos).toHaveLength(2);
  expect(undos[0]).toMatch(/^[\w.:-]+$/);
  expect(undos[1]).toBe(undos[0]);
  expect(await drawn()).toEqual(['0-0']);
  await h.screenshot('undo-resend-saved');

  // the next undo is a change of its own: it runs
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();
  expect(undos[2]).not.toBe(undos[0]);
  expect(linkKeys(committed(h.ctx, pairId))).toEqual([]);
  expect(h.pageErrors.filter((e) => !/ERR_CONNECTION_RESET|Failed to load resource/.test(e))).toEqual([]);
});
