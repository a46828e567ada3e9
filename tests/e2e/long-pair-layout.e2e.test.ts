// The frictions of a long day on a long pair, checked by where things land on a 1440×900
// page (element bounding boxes), on the bundled Lao–Thai sample: the matrix's row and
// column labels stay in view while it scrolls and its tagged links show their tags; the
// line view's sentence strip leaves the last band's target row visible; the editor's
// toolbar is one row; a banner does not shrink the editor; the pair list's rows hold whole
// lines of text ("…" where cut) and a search's hits are wrapped in <mark>.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dbOf } from '../../src/main/store/connection.ts';
import { committed, sampleProject } from './editor-fixture.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
let page: Page;
let longest = 0;

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  height: number;
}
/** An element's box in the page (run in the page, as a string: no DOM types here). */
const box = (selector: string): Promise<Box> =>
  page.evaluate<Box>(`(() => {
    const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
  })()`);
const press = async (...keys: string[]) => {
  for (const k of keys) await page.keyboard.press(k);
};

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await sampleProject(h.ctx, join(h.dir, 'long.mekong'));
  longest = (
    dbOf(h.ctx.store!).prepare('SELECT id FROM pairs ORDER BY length(src_text) + length(tgt_text) DESC LIMIT 1').get() as { id: number }
  ).id;
  await page.reload();
});

afterAll(async () => {
  await h?.close();
});

async function openLongest(): Promise<void> {
  await page.getByRole('tab', { name: 'Pairs' }).click();
  await page.getByPlaceholder(/Search text/).fill(`#${longest}`);
  await page.getByTestId('pair-list').locator(`[data-pair-id="${longest}"]`).click();
  await page.keyboard.press('Enter');
  await page
    .getByTestId('editor-pair')
    .filter({ hasText: `#${longest}` })
    .waitFor();
}

describe('a long pair', () => {
  it('keeps the last band of the line view clear of the sentence strip, the toolbar one row', async () => {
    await openLongest();
    const view = page.getByTestId('line-view');
    await expect.poll(async () => Number(await view.getAttribute('data-bands'))).toBeGreaterThan(3);
    // End: the cursor on the last source token, in the last band; its target row shows too.
    await page.locator('[data-testid="editor"] [role="grid"]').focus();
    await press('End');
    await expect
      .poll(() => view.locator('.tok.cursor').getAttribute('data-index'))
      .toBe(String(committed(h.ctx, longest).srcTokens.length - 1));
    const lastTgt = '[data-testid="line-view"] [data-band]:last-of-type [data-side="tgt"]:last-of-type';
    const [tok, line, strip] = await Promise.all([box(lastTgt), box('[data-testid="line-view"]'), box('[data-testid="sentence-strip"]')]);
    expect(tok.bottom).toBeLessThanOrEqual(line.bottom);
    expect(tok.bottom).toBeLessThanOrEqual(strip.top);
    await h.screenshot('long-pair-line-end');

    // The toolbar at 1440 px: every control on one row (as tall as one button row).
    const bar = await box('[data-testid="editor"] [role="toolbar"]');
    const button = await box('[data-testid="editor"] [role="toolbar"] .btn');
    expect(bar.height).toBeLessThan(button.height * 2);
    const tops = await page
      .locator('[data-testid="editor"] [role="toolbar"] > :visible')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)));
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(2);
  });

  it('shows a warning over the editor without shrinking it, and lets it be dismissed', async () => {
    const views = '[data-testid="editor"] [role="grid"]';
    const before = await box(views);
    // Enter on a pair without links warns instead of marking it done.
    await page.locator(views).focus();
    await press('Enter');
    const warning = page.getByTestId('editor-warning');
    await warning.waitFor();
    expect(await box(views)).toEqual(before);
    // The tokens stay clickable: the one at the cursor is not under the warning.
    const onTop = `(() => {
      const t = document.querySelector('[data-testid="line-view"] .tok.cursor');
      const r = t.getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('.tok') === t;
    })()`;
    expect(await page.evaluate<boolean>(onTop)).toBe(true);
    await h.screenshot('long-pair-warning');
    await warning.getByRole('button', { name: /Dismiss/ }).click();
    await warning.waitFor({ state: 'detached' });
    expect(await box(views)).toEqual(before);
  });

  it('keeps the matrix labels in view while scrolling, and shows the tags of tagged links', async () => {
    // A tagged link far down and right: the last tokens, tag 1.
    const p = committed(h.ctx, longest);
    const [s, t] = [p.srcTokens.length - 2, p.tgtTokens.length - 2];
    const tok = (side: string, i: number) => page.locator(`[data-testid="line-view"] [data-side="${side}"][data-index="${i}"]`);
    await tok('src', s).click();
    await tok('tgt', t).click();
    await expect.poll(() => committed(h.ctx, longest).gold.map((l) => `${l.s}-${l.t}`)).toContain(`${s}-${t}`);
    await press('1');
    await expect.poll(() => committed(h.ctx, longest).gold.find((l) => l.s === s && l.t === t)?.tag).toBe('semantic');

    await page.getByRole('button', { name: 'Matrix', exact: true }).click();
    const matrix = page.getByTestId('matrix-view');
    await matrix.locator('rect.hit').waitFor();
    const scroller = await box('[data-testid="matrix-view"]');
    // Scrolled to the far corner: the labels have stayed at the view's top and left edges.
    await matrix.evaluate((el) => el.scrollTo(el.scrollWidth, el.scrollHeight));
    await expect.poll(() => matrix.evaluate((el) => el.scrollTop > 500 && el.scrollLeft > 500)).toBe(true);
    const [cols, rows, corner] = await Promise.all([
      box('[data-testid="matrix-cols"]'),
      box('[data-testid="matrix-rows"]'),
      box('[data-testid="matrix-corner"]'),
    ]);
    expect(cols.top).toBeCloseTo(scroller.top, 0);
    expect(rows.left).toBeCloseTo(scroller.left, 0);
    expect(corner.top).toBeCloseTo(scroller.top, 0);
    expect(corner.left).toBeCloseTo(scroller.left, 0);
    // The labels of the rows and columns in view are the ones shown beside them.
    const lastRow = await box(`[data-testid="matrix-rows"] [data-row="${p.srcTokens.length - 1}"]`);
    expect(lastRow.bottom).toBeLessThanOrEqual(scroller.bottom);
    expect(lastRow.top).toBeGreaterThan(cols.bottom);
    // The tagged link carries its tag's label in its cell, and the legend names it.
    const label = matrix.locator(`text.tag[data-tag-link="${s}-${t}"]`);
    expect(await label.evaluate((el) => el.firstChild?.textContent)).toBe('SEM');
    const [cell, tagBox] = await Promise.all([box(`[data-gold="${s}-${t}"]`), box(`text.tag[data-tag-link="${s}-${t}"]`)]);
    expect(tagBox.left).toBeGreaterThanOrEqual(cell.left - 6);
    expect(tagBox.right).toBeLessThanOrEqual(cell.right + 6);
    expect(await page.getByTestId('matrix-tag-key').allTextContents()).toEqual(['SEM semantic']);
    await h.screenshot('long-pair-matrix-scrolled');
    await page.getByRole('button', { name: 'Lines', exact: true }).click();
    expect(h.pageErrors).toEqual([]);
  });
});

describe('the pair list', () => {
  it('sizes rows to whole lines of text, "…" where cut, and marks search hits', async () => {
    await page.getByRole('tab', { name: 'Pairs' }).click();
    await page.getByPlaceholder(/Search text/).fill('');
    const list = page.getByTestId('pair-list');
    await list.locator('[role="row"][data-pair-id]').first().waitFor();
    // No strip is cut mid-line: its box holds a whole number of lines, inside its row.
    // Each strip in view: inside its row, its height over its line height, cut or not, its line clamp.
    const strips = await page.evaluate<{ inside: boolean; lines: number; clipped: boolean; clamp: string }[]>(`
      [...document.querySelectorAll('[data-testid="pair-list"] [role="row"][data-pair-id] [data-testid^="tokens-"]')].map((el) => {
        const row = el.closest('[role="row"]').getBoundingClientRect();
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        return {
          inside: r.bottom <= row.bottom + 0.5 && r.top >= row.top - 0.5,
          lines: r.height / parseFloat(style.lineHeight),
          clipped: el.scrollHeight > el.clientHeight + 1,
          clamp: style.webkitLineClamp,
        };
      })`);
    expect(strips.length).toBeGreaterThan(4);
    for (const s of strips) {
      expect(s.inside).toBe(true);
      expect(Math.abs(s.lines - Math.round(s.lines))).toBeLessThan(0.05);
    }
    // A cut text ends in "…" (line-clamp); the longest pair's is cut.
    expect(strips.some((s) => s.clipped)).toBe(true);
    expect(new Set(strips.map((s) => s.clamp))).toEqual(new Set(['3']));
    await h.screenshot('pair-list-rows');

    // A search: every hit inside <mark>, in source and target.
    await page.getByPlaceholder(/Search text/).fill('ປະຈຳ');
    await expect.poll(() => list.locator('mark').count()).toBeGreaterThan(0);
    expect(new Set(await list.locator('mark').allTextContents())).toEqual(new Set(['ປະຈຳ']));
    await page.getByPlaceholder(/Search text/).fill('2563');
    await expect.poll(() => list.locator('[data-testid="tokens-th"] mark').count()).toBeGreaterThan(0);
    expect(new Set(await list.locator('mark').allTextContents())).toEqual(new Set(['2563']));
    await h.screenshot('pair-list-search-hits');
    expect(h.pageErrors).toEqual([]);
  });
});
