// The project file deleted while the app has it open: the next edit is refused, the app
// says so in a banner that offers to save a copy, and after "Save a copy" work goes on in
// the copy, which holds every edit acknowledged before the file went away.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import { committed, sampleProject } from './editor-fixture.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness('noy');
  await sampleProject(h.ctx, join(h.dir, 'gone.mekong'));
  await h.page.reload();
});

afterAll(async () => {
  await h?.close();
});

test('a deleted project file: edits refused, the banner offers a copy, the copy keeps every saved edit', async () => {
  const { page } = h;
  await page.getByTestId('pair-list').locator('[role="row"]').first().click();
  await page.keyboard.press('Enter');
  await page.getByTestId('line-view').waitFor();
  const tok = (side: string, i: number) => page.locator(`[data-testid="line-view"] [data-side="${side}"][data-index="${i}"]`);
  const pairId = h.ctx.store!.listPairs({}, 0, 1).pairs[0].id;
  await tok('src', 0).click();
  await tok('tgt', 0).click();
  await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();
  const before = committed(h.ctx, pairId).gold;
  expect(before.length).toBeGreaterThan(0);

  rmSync(h.ctx.store!.path);
  await tok('src', 1).click();
  await tok('tgt', 1).click();
  const banner = page.getByRole('alert').filter({ hasText: 'The project file is gone.' });
  await banner.waitFor();
  await h.screenshot('file-gone-banner');
  // The browser logs the refused call's 410 itself; nothing else went wrong in the page.
  expect(h.pageErrors.filter((e) => !/status of 410/.test(e))).toEqual([]);

  const copy = join(h.dir, 'gone (copy).mekong');
  await expect.poll(() => page.getByLabel('Path of the copy').inputValue()).toBe(copy);
  await page.getByRole('button', { name: 'Save a copy' }).click();
  await banner.waitFor({ state: 'detached' });
  expect(h.ctx.store!.path).toBe(copy);
  expect(existsSync(`${join(h.dir, 'gone.mekong')}-wal`)).toBe(false);
  await h.screenshot('file-gone-saved-copy');

  const reopened = ProjectStore.open(copy);
  try {
    expect(committed({ ...h.ctx, store: reopened }, pairId).gold).toEqual(before);
  } finally {
    reopened.close();
  }
});
