// The import dialog's "Keep recurring Lao and Thai names whole" checkbox (issue 43 item 10),
// in browser mode: on by default, a Lao–Thai import learns the recurring name and says so; with
// it unticked, a second import of the same file learns nothing.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.ts';
import { LAO_NAME, LAO_THAI_NAME_CORPUS } from '../unit/helpers/lao-thai-names.ts';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
});

afterAll(async () => {
  await h?.close();
});

/** Imports the corpus through the dialog, the checkbox as `learn`; returns the job's message. */
async function importCorpus(learn: boolean, shot: string): Promise<string> {
  const dialog = await h.openUploadImport('lo-th.tsv', LAO_THAI_NAME_CORPUS, 'tsv');
  const box = dialog.getByLabel('Keep recurring Lao and Thai names whole (learn words from the corpus)');
  expect(await box.isChecked()).toBe(true);
  if (!learn) await box.uncheck();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const done = dialog.locator('[data-testid="job-progress"][data-phase="done"]');
  await done.waitFor();
  await h.screenshot(shot);
  const message = (await done.locator('.message').textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  return message;
}

describe('import learning words', () => {
  it('learns the recurring name by default, and nothing with the box unticked', async () => {
    const form = page.getByRole('form', { name: 'Create a project' });
    await form.getByLabel('Project name').fill('Lao–Thai');
    await form.getByLabel('Project file').fill(join(h.dir, 'lo-th.mekong'));
    await form.getByLabel('Source language').fill('lo');
    await form.getByLabel('Target language').fill('th');
    await form.getByRole('button', { name: 'Create project' }).click();
    await page.getByTestId('project-name').filter({ hasText: 'Lao–Thai' }).waitFor();

    const learned = await importCorpus(true, '45-import-learns-words');
    expect(learned).toMatch(/^imported 4 pairs from lo-th\.tsv/);
    expect(learned).toContain(LAO_NAME);
    const store = h.ctx.store!;
    expect(store.getPair(3).srcTokens[0].text).toBe(LAO_NAME);

    const unticked = await importCorpus(false, '46-import-learns-nothing');
    expect(unticked).toMatch(/^imported 4 pairs from lo-th\.tsv/);
    expect(unticked).not.toContain('learned');
  });
});
