// Links made while the server does not answer (every API call refused by the network, as
// when the server is stopped): each shows at once, dashed and counted in the banner; a second
// click on a pending link takes it back on screen instead of queuing a toggle; when the server
// answers again, the project file holds exactly the links the linguist saw.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { committed, linkKeys, sampleProject } from './editor-fixture.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
/** While true, every API call fails as if the server had gone away. */
let down = false;

beforeAll(async () => {
  h = await startHarness('noy');
  await sampleProject(h.ctx, join(h.dir, 'offline.mekong'));
  await h.page.route('**/api/**', (route) => (down ? route.abort('connectionrefused') : route.continue()));
  await h.page.reload();
});

afterAll(async () => {
  await h?.close();
});

test('links made while the server is away show as pending and are saved as shown', async () => {
  const { page } = h;
  await page.getByTestId('pair-list').locator('[role="row"]').first().click();
  await page.keyboard.press('Enter');
  await page.getByTestId('line-view').waitFor();
  const pairId = Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
  const tok = (side: string, i: number) => page.locator(`[data-testid="line-view"] [data-side="${side}"][data-index="${i}"]`);
  const link = async (s: number, t: number) => {
    await tok('src', s).click();
    await tok('tgt', t).click();
  };
  const drawn = () =>
    page
      .locator('[data-testid="line-view"] path.gold')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-link')}${e.classList.contains('pending') ? ' pending' : ''}`).sort());
  await link(0, 0);
  await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();
  expect(linkKeys(committed(h.ctx, pairId))).toEqual(['0-0']);

  down = true;
  await link(1, 1);
  await page.getByTestId('editor-offline').waitFor();
  expect(await drawn()).toEqual(['0-0', '1-1 pending']);
  await expect.poll(() => page.getByTestId('pending-count').textContent()).toBe('1 link change waiting');
  // The same two tokens again: the pending link goes from the screen, nothing is queued for it.
  await link(1, 1);
  expect(await drawn()).toEqual(['0-0']);
  await page.getByTestId('pending-count').waitFor({ state: 'detached' });
  await link(2, 2);
  await link(0, 0); // unlinks the saved 0-0
  expect(await drawn()).toEqual(['2-2 pending']);
  await expect.poll(() => page.getByTestId('pending-count').textContent()).toBe('2 link changes waiting');
  expect(await page.getByTestId('save-state').getAttribute('data-state')).toBe('saving');
  await h.screenshot('offline-links-pending');
  expect(linkKeys(committed(h.ctx, pairId))).toEqual(['0-0']);

  down = false;
  await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor({ timeout: 30_000 });
  await page.getByTestId('editor-offline').waitFor({ state: 'detached' });
  expect(linkKeys(committed(h.ctx, pairId))).toEqual(['2-2']);
  expect(await drawn()).toEqual(['2-2']);
  await h.screenshot('offline-links-saved');
  expect(h.pageErrors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e))).toEqual([]);
});
