// The studio end to end in browser mode: start screen, create a project, import the
// bundled Lao–Thai sample CSV with segmentation, see Lao and Thai tokens rendered with
// the bundled fonts, filter by text and status, change statuses and watch the counts,
// export one status, see an import error, and open the sample project from the start screen.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/shared/csp.ts';
import { startHarness, type Harness } from './harness.ts';
import { cspMeta, currentUrl, glyphProbe, storedToken, type GlyphProbe } from './in-page.ts';

const SAMPLE = join(import.meta.dirname, '../../resources/sample/vientiane-thaiembassy-sent.csv');
const rows = parse(readFileSync(SAMPLE), { bom: true, columns: true }) as { lao_sent: string; thai_sent: string }[];
const LAO_QUERY = 'ຊຽງຂວາງ'; // Xieng Khouang
const matching = rows.filter(
  (r) => r.lao_sent.normalize('NFC').includes(LAO_QUERY) || r.thai_sent.normalize('NFC').includes(LAO_QUERY),
).length;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

describe('browser mode', () => {
  it('keeps the token out of the address bar and serves the shared CSP', async () => {
    const { page } = h;
    await page.getByRole('heading', { name: 'Mekong' }).waitFor();
    expect(await page.evaluate(currentUrl)).not.toContain('token=');
    expect(await page.evaluate(storedToken)).toBe(h.server.token);
    // A <meta> policy cannot carry frame-ancestors; the response header has the full policy.
    const withoutFrameAncestors = CONTENT_SECURITY_POLICY.split('; ')
      .filter((d) => !d.startsWith('frame-ancestors'))
      .join('; ');
    expect(await page.evaluate(cspMeta)).toBe(withoutFrameAncestors);
    await expect(page.getByTestId('annotator-name').textContent()).resolves.toBe('e2e-linguist');
    await h.screenshot('01-start');
  });

  it('changes the annotator', async () => {
    const { page } = h;
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByLabel('Annotator').fill('Souphanh');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('annotator-name').filter({ hasText: 'Souphanh' }).waitFor();
    expect(h.ctx.annotator).toBe('Souphanh');
  });

  it('creates a project and imports the sample CSV with progress', async () => {
    const { page } = h;
    const form = page.getByRole('form', { name: 'Create a project' });
    await form.getByLabel('Project name').fill('Embassy news');
    await form.getByLabel('Project file').fill(join(h.dir, 'embassy.mekong'));
    await form.getByLabel('Source language').fill('lo');
    await form.getByLabel('Target language').fill('th');
    await form.getByRole('button', { name: 'Create project' }).click();
    await page.getByTestId('project-name').filter({ hasText: 'Embassy news' }).waitFor();
    await expect(page.getByTestId('count-total').textContent()).resolves.toBe('0');

    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a corpus' });
    await dialog.getByLabel('Format').selectOption('csv');
    await dialog.getByLabel('Corpus file: path').fill(SAMPLE);
    // As `mekong import` decides: a header when a column is chosen by name, unless said otherwise.
    expect(await dialog.getByLabel('First line').inputValue()).toBe(
      await dialog.getByRole('option', { name: 'detect a header' }).getAttribute('value'),
    );
    await dialog.getByLabel('Source column').fill('lao_sent');
    await dialog.getByLabel('Target column').fill('thai_sent');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor();
    await h.screenshot('02-import-done');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await page
      .getByTestId('count-total')
      .filter({ hasText: String(rows.length) })
      .waitFor();
    await expect(page.getByTestId('count-new').textContent()).resolves.toBe(String(rows.length));
  });

  it('shows segmented Lao and Thai tokens in a virtualized list', async () => {
    const { page } = h;
    const list = page.getByTestId('pair-list');
    const firstLao = list.locator('[role="row"]').first().getByTestId('tokens-lo').locator('.tok');
    await firstLao.first().waitFor();
    const laoTokens = await firstLao.allTextContents();
    const thaiTokens = await list.locator('[role="row"]').first().getByTestId('tokens-th').locator('.tok').allTextContents();
    expect(laoTokens.length).toBeGreaterThan(10);
    expect(laoTokens.some((t) => /[\u0E80-\u0EFF]/.test(t))).toBe(true);
    expect(thaiTokens.some((t) => /[\u0E00-\u0E7F]/.test(t))).toBe(true);
    expect(await list.locator('[role="row"]').count()).toBeLessThan(30);
    await h.screenshot('03-project');

    await list.focus();
    await page.keyboard.press('End');
    await list.locator(`[role="row"][aria-rowindex="${rows.length}"][aria-selected="true"] .tok`).first().waitFor();
    await page
      .getByTestId('pair-detail')
      .getByRole('heading', { name: `Pair #${rows.length}` })
      .waitFor();
    await page.keyboard.press('Home');
    await page.getByTestId('pair-detail').getByRole('heading', { name: 'Pair #1' }).waitFor();
  });

  it('renders Lao, Thai, Khmer and Chinese with the bundled fonts, not boxes', async () => {
    const scripts = [
      ['lo', 'Noto Sans Lao', 'ກ', '\u0EB4', 'ເອກອັກຄະຣາຊະທູດ'],
      ['th', 'Noto Sans Thai', 'ก', '\u0E34', 'เอกอัครราชทูต'],
      ['km', 'Noto Sans Khmer', 'ក', '\u17B7', 'ឯកអគ្គរាជទូត'],
      ['zh', 'Noto Sans SC', '中', '', '大使馆'],
    ];
    for (const [lang, family, base, mark, word] of scripts) {
      const probe = (await h.page.evaluate(glyphProbe(lang, family, base, mark, word))) as GlyphProbe;
      expect(probe.loadedFaces, `${family} loaded`).toBeGreaterThan(0);
      expect(probe.check).toBe(true);
      expect(probe.base).toBeGreaterThan(5);
      expect(Math.abs(probe.marked - probe.base), `${lang} combining mark takes no width`).toBeLessThan(1);
      expect(Math.abs(probe.word - probe.wordInFamily), `${lang} drawn by ${family}`).toBeLessThan(0.5);
    }
  });

  it('filters by text', async () => {
    const { page } = h;
    await page.getByLabel('Search source and target text').fill(LAO_QUERY);
    await page
      .getByTestId('match-count')
      .filter({ hasText: `${matching} pairs match` })
      .waitFor();
    const sources = await page.getByTestId('pair-list').getByTestId('tokens-lo').allTextContents();
    expect(sources.length).toBe(matching);
    // The hit is highlighted in the tokens that carry it.
    const hit = await page.getByTestId('pair-list').getByTestId('tokens-lo').first().locator('.tok.hit').allTextContents();
    expect(hit.join('')).toContain(LAO_QUERY);
    await h.screenshot('04-text-filter');
    await page.getByLabel('Search source and target text').fill('');
    await page
      .getByTestId('match-count')
      .filter({ hasText: `${rows.length} pairs` })
      .waitFor();
  });

  it('changes statuses and filters by them; the counts follow', async () => {
    const { page } = h;
    await page.getByLabel('Status of pair 1', { exact: true }).selectOption('done');
    await page.getByTestId('count-done').filter({ hasText: /^1$/ }).waitFor();
    await page.getByLabel('Status of pair 2', { exact: true }).selectOption('flagged');
    await page.getByTestId('count-flagged').filter({ hasText: /^1$/ }).waitFor();
    await expect(page.getByTestId('count-new').textContent()).resolves.toBe(String(rows.length - 2));

    const statusFilter = page.getByRole('group', { name: 'Filter by status' });
    await statusFilter.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('match-count').filter({ hasText: '1 pair match' }).waitFor();
    await statusFilter.getByRole('button', { name: 'Flagged' }).click();
    await page.getByTestId('match-count').filter({ hasText: '2 pairs match' }).waitFor();
    await h.screenshot('05-status-filter');

    // Reviewing inside a filtered view: a pair leaving the filter leaves the list.
    await page.getByLabel('Status of pair 2', { exact: true }).selectOption('in-review');
    await page.getByTestId('match-count').filter({ hasText: '1 pair match' }).waitFor();
    await expect(page.getByTestId('count-in-review').textContent()).resolves.toBe('1');
    await statusFilter.getByRole('button', { name: 'Done' }).click();
    await statusFilter.getByRole('button', { name: 'Flagged' }).click();
    await page
      .getByTestId('match-count')
      .filter({ hasText: `${rows.length} pairs` })
      .waitFor();

    // Keyboard review: select pair 3, mark it flagged (4), then back to new (1).
    await page
      .getByTestId('pair-list')
      .locator('[data-pair-id="3"]')
      .click({ position: { x: 20, y: 10 } });
    await page.keyboard.press('4');
    await page.getByTestId('count-flagged').filter({ hasText: /^1$/ }).waitFor();
    await expect(page.getByLabel('Status of pair 3', { exact: true }).inputValue()).resolves.toBe('flagged');
    await page.keyboard.press('1');
    await page.getByTestId('count-flagged').filter({ hasText: /^0$/ }).waitFor();
    expect(h.pageErrors).toEqual([]);
  });

  it('exports the pairs of one status as JSONL, downloaded to this computer (browser mode)', async () => {
    const { page } = h;
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export the corpus' });
    await dialog.getByLabel('Format').selectOption('jsonl');
    expect(await dialog.getByLabel('Download to this computer').isChecked()).toBe(true);
    await dialog.getByLabel('File name').fill('done pairs.jsonl');
    await dialog.getByRole('group', { name: 'Statuses' }).getByLabel('Done').check();
    const downloaded = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe('done pairs.jsonl');
    const link = dialog.getByTestId('downloads').getByRole('link', { name: 'done pairs.jsonl' });
    const href = (await link.getAttribute('href'))!;
    await h.screenshot('06-export-done');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    const text = readFileSync((await file.path())!, 'utf8');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).status).toBe('done');
    // The link needs the session's token; an unknown export or file is not served.
    const base = new URL(page.url()).origin;
    expect(await (await fetch(base + href)).text()).toBe(text);
    expect((await fetch(base + href.replace(/token=[^&]+/, 'token=wrong'))).status).toBe(401);
    expect((await fetch(base + href.replace(/download\/[^/]+\//, 'download/aaaaaaaaaaaa/'))).status).toBe(404);
    expect((await fetch(base + href.replace(/\/[^/?]+\?/, '/..%2Fx?'))).status).toBe(404);
  });

  it('shows a failed import with file, line and reason, and leaves the project as it was', async () => {
    const { page } = h;
    const broken = join(h.dir, 'broken.csv');
    writeFileSync(broken, 'lao_sent,thai_sent\nສະບາຍດີ,สวัสดี\nຂອບໃຈ,\n');
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a corpus' });
    await dialog.getByLabel('Upload from this computer').first().check();
    await dialog.getByLabel('Corpus file: file to upload').setInputFiles(broken);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    // The server names its temp copy of the upload; the dialog shows the file's own name.
    expect(await alert.locator('p').textContent()).toBe('broken.csv:3: empty target side');
    await h.screenshot('07-import-error');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByTestId('count-total').textContent()).resolves.toBe(String(rows.length));
  });

  it('corrects the language codes: an unknown code is refused with why, a known one shows in the header', async () => {
    const { page } = h;
    await page.getByTitle('Correct the language codes').click();
    const dialog = page.getByRole('dialog', { name: 'Project languages' });
    await dialog.getByLabel('Target language').fill('xx');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: "Target language: 'xx' is not a language code (e.g. lo, th, zh)" }).waitFor();
    expect(h.ctx.store!.meta().tgtLang).toBe('th');
    await dialog.getByLabel('Target language').fill('vi');
    await h.screenshot('07b-languages');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTitle('Correct the language codes').filter({ hasText: 'Vietnamese' }).waitFor();
    expect(h.ctx.store!.meta().tgtLang).toBe('vi');
    await page.getByTitle('Correct the language codes').click();
    await dialog.getByLabel('Target language').fill('th');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(h.ctx.store!.meta().tgtLang).toBe('th');
    expect(h.pageErrors).toEqual([]);
  });

  it('opens the bundled sample project from the start screen', async () => {
    const { page } = h;
    await page.getByRole('button', { name: 'Close project' }).click();
    await page.getByRole('button', { name: 'Open sample project' }).click();
    await page.getByTestId('project-name').filter({ hasText: 'Lao–Thai embassy sample' }).waitFor({ timeout: 60_000 });
    await page
      .getByTestId('count-total')
      .filter({ hasText: String(rows.length) })
      .waitFor();
    await page.getByTestId('pair-list').locator('[role="row"] .tok').first().waitFor();
    await page.getByTestId('pair-list').locator('[role="row"]').nth(2).click();
    await page.getByTestId('pair-detail').getByRole('heading', { name: 'Pair #3' }).waitFor();
    await h.screenshot('08-sample');
    expect(h.pageErrors).toEqual([]);
  });

  it('lists recent projects on the start screen and opens one', async () => {
    const { page } = h;
    await page.getByRole('button', { name: 'Close project' }).click();
    const recent = page.getByTestId('recent-projects');
    await recent.waitFor();
    const names = await recent.getByRole('button').allTextContents();
    expect(names.map((n) => n.trim())).toEqual(['sample-lao-thai.mekong', 'embassy.mekong']);
    await h.screenshot('09-recent');
    await recent.getByRole('button', { name: 'embassy.mekong' }).click();
    await page.getByTestId('project-name').filter({ hasText: 'Embassy news' }).waitFor();
    expect(h.pageErrors).toEqual([]);
  });
});
