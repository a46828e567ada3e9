// The import and export dialogs in browser mode, in the linguist's words: a bad language code
// is named by its field; an uploaded file with a "vi,en" header row is imported without it and
// the dialog says so, naming the file as chosen (never the server's upload path); an empty
// file is refused with one line; a Pharaoh export downloads as one zip (links and tokenised
// sentences), and a Parquet export downloads the JSONL's records with the pairs' ids.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setGold } from '../../src/main/review/editor.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
});

afterAll(async () => {
  await h?.close();
});

async function upload(name: string, text: string): Promise<void> {
  const dialog = await h.openUploadImport(name, text, 'csv');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
}

describe('import and export dialogs', () => {
  it('names a bad language code by its field', async () => {
    const form = page.getByRole('form', { name: 'Create a project' });
    await form.getByLabel('Project name').fill('Tatoeba vi–en');
    await form.getByLabel('Project file').fill(join(h.dir, 'vi-en.mekong'));
    await form.getByLabel('Source language').fill('xx');
    await form.getByLabel('Target language').fill('en');
    await form.getByText("'xx' is not a language code (e.g. lo, th, zh)").waitFor();
    await form.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('alert').filter({ hasText: "Source language: 'xx' is not a language code (e.g. lo, th, zh)" }).waitFor();
    expect(await page.getByRole('alert').textContent()).not.toContain('project.create');
    await h.screenshot('40-create-bad-language');
    await form.getByLabel('Source language').fill('vi');
    await form.locator('span.name').filter({ hasText: 'Vietnamese' }).waitFor();
    await form.getByRole('button', { name: 'Create project' }).click();
    await page.getByTestId('project-name').filter({ hasText: 'Tatoeba vi–en' }).waitFor();
  });

  it('skips a "vi,en" header row and says so, naming the uploaded file as chosen', async () => {
    await upload('tatoeba.csv', 'vi,en\nTôi ăn cơm,I eat rice\nXin chào,Hello\nCảm ơn bạn,Thank you\n');
    const dialog = page.getByRole('dialog', { name: 'Import a corpus' });
    const done = dialog.locator('[data-testid="job-progress"][data-phase="done"]');
    await done.waitFor();
    const message = await done.locator('.message').textContent();
    expect(message).toBe(
      'imported 3 pairs from tatoeba.csv; line 1 ("vi", "en") looked like a header and was skipped; set "First line" to "a sentence pair" to keep it as a pair',
    );
    await expect(dialog.getByLabel('First line').locator('option').allTextContents()).resolves.toEqual([
      'detect a header',
      'a header',
      'a sentence pair',
    ]);
    await h.screenshot('41-import-header-skipped');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await page.getByTestId('count-total').filter({ hasText: /^3$/ }).waitFor();
  });

  it('refuses an empty file with one line naming it', async () => {
    await upload('empty.csv', '');
    const dialog = page.getByRole('dialog', { name: 'Import a corpus' });
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.locator('p').textContent()).toBe('empty.csv: the file is empty: there is nothing to import');
    await h.screenshot('42-import-empty');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByTestId('count-total').textContent()).resolves.toBe('3');
  });

  it('downloads a Pharaoh export as one zip, and Parquet with the pairs’ ids', async () => {
    const store = h.ctx.store!;
    setGold(
      store,
      'noy',
      1,
      [
        { s: 0, t: 0, kind: 'sure', score: null },
        { s: 2, t: 2, kind: 'sure', score: null },
      ],
      [],
    );
    await page.reload();
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export the corpus' });
    await dialog.getByLabel('Format').selectOption('pharaoh');
    await dialog.getByLabel('File name').fill('tatoeba.pharaoh');
    await dialog.getByText('the files come in one zip').waitFor();
    const zipped = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const zip = await zipped;
    expect(zip.suggestedFilename()).toBe('tatoeba.zip');
    await dialog
      .locator('[data-testid="job-progress"][data-phase="done"]')
      .getByText(/all in one download: tatoeba\.zip$/)
      .waitFor();
    expect(await dialog.getByTestId('downloads').getByRole('link').allTextContents()).toEqual(['tatoeba.zip']);
    expect(await dialog.getByTestId('job-progress').textContent()).not.toContain('mekong-download');
    await h.screenshot('43-export-pharaoh-zip');
    const files = unzipSync(readFileSync((await zip.path())!));
    expect(Object.keys(files).sort()).toEqual(['tatoeba.en', 'tatoeba.pharaoh', 'tatoeba.vi']);
    expect(strFromU8(files['tatoeba.pharaoh']).split('\n').slice(0, 3)).toEqual(['0-0 2-2', '', '']);
    expect(strFromU8(files['tatoeba.vi']).split('\n')[0]).toBe('Tôi ăn cơm');

    await dialog.getByLabel('Format').selectOption('parquet');
    await dialog.getByLabel('File name').fill('tatoeba.parquet');
    const parquet = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const download = await parquet;
    expect(download.suggestedFilename()).toBe('tatoeba.parquet');
    const bytes = readFileSync((await download.path())!);
    const rows = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })) as {
      id: bigint;
      src: { text: string };
      alignments?: { source: string; links: { s: number; t: number }[] }[] | null;
    }[];
    expect(rows.map((r) => [Number(r.id), r.src.text])).toEqual([
      [1, 'Tôi ăn cơm'],
      [2, 'Xin chào'],
      [3, 'Cảm ơn bạn'],
    ]);
    expect(rows[0].alignments?.[0]).toMatchObject({
      source: 'noy',
      links: [
        { s: 0, t: 0 },
        { s: 2, t: 2 },
      ],
    });
    await h.screenshot('44-export-parquet');
    // The refused project.create is the one failed request (the browser logs its 400).
    expect(h.pageErrors.filter((e) => !e.includes('status of 400'))).toEqual([]);
  });
});
