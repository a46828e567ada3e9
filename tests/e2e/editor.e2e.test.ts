// The alignment editor end to end in browser mode, on the Lao–Thai sample aligned through
// the Align dialog: linking with the mouse and with keys, sure/possible, "not translated",
// undo/redo from the log, split and merge, accepting and rejecting suggestions, the matrix
// view, Enter to the next pair, the review queue's order, the lexicon's bulk fix with one
// undo, and the agreement report. Every check reads what the store committed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { reviewQueue } from '../../src/main/review/queue.ts';
import { createAlignment } from '../../src/main/store/alignments.ts';
import { setGold, setRejected } from '../../src/main/review/editor.ts';
import { adjudication } from '../../src/main/review/adjudication.ts';
import { startHarness, type Harness } from './harness.ts';
import { committed, linkKeys, sampleProject } from './editor-fixture.ts';
import { dbOf } from '../../src/main/store/connection.ts';

let h: Harness;
let page: Page;
let pairId = 0;
let modelId = 0;

const tok = (side: 'src' | 'tgt', i: number) => page.locator(`[data-testid="line-view"] [data-side="${side}"][data-index="${i}"]`);
const saved = () => page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();
const gold = () => linkKeys(committed(h.ctx, pairId));
const press = async (...keys: string[]) => {
  for (const k of keys) await page.keyboard.press(k);
};

beforeAll(async () => {
  h = await startHarness('souk');
  page = h.page;
  await sampleProject(h.ctx, join(h.dir, 'editor.mekong'));
  await page.reload();
});

afterAll(async () => {
  await h?.close();
});

describe('alignment editor', () => {
  it('aligns the project from the Align dialog', async () => {
    await page.getByRole('button', { name: 'Align…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Align the project' });
    await dialog.getByLabel('Method').selectOption('ibm2');
    await dialog.getByRole('button', { name: 'Align', exact: true }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 90_000 });
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    modelId = h.ctx.store!.info().alignments.find((a) => a.origin === 'model')!.id;
    expect(h.ctx.store!.info().alignments.find((a) => a.id === modelId)!.links).toBeGreaterThan(1000);
  });

  it('opens a pair from the list and links with the mouse', async () => {
    await page.getByTestId('pair-list').locator('[role="row"]').first().click();
    await page.keyboard.press('Enter');
    await page.getByTestId('line-view').waitFor();
    pairId = Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
    await tok('src', 0).click();
    await tok('tgt', 0).click();
    await expect.poll(gold).toEqual(['0-0']);
    // Many-to-many: two source tokens (click, Shift+click) to one target token.
    await tok('src', 1).click();
    await tok('src', 2).click({ modifiers: ['Shift'] });
    await tok('tgt', 1).click();
    await expect.poll(gold).toEqual(['0-0', '1-1', '2-1']);
    await saved();
    await page.locator('[data-testid="line-view"] path.gold').first().waitFor({ state: 'attached' });
    expect(await page.locator('[data-testid="line-view"] path.gold').count()).toBe(3);
  });

  it('links, flips to possible, marks not translated and removes with keys', async () => {
    await tok('src', 3).click({ modifiers: ['Shift'] });
    await tok('src', 3).click({ modifiers: ['Shift'] }); // cursor on src 3, nothing selected
    await press('ArrowRight', 'Space', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'Space');
    await expect.poll(() => committed(h.ctx, pairId).gold.some((l) => l.s === 4)).toBe(true);
    const t = committed(h.ctx, pairId).gold.find((l) => l.s === 4)!.t;
    await press('p');
    await expect.poll(gold).toContain(`4-${t}p`);
    await expect.poll(() => page.locator('[data-testid="line-view"] path.gold.possible').count()).toBe(1);
    await press('ArrowUp', 'ArrowLeft', 'ArrowLeft', 'Delete');
    await expect.poll(gold).toEqual(['0-0', '1-1', `4-${t}p`]);
    await press('ArrowRight', 'ArrowRight', 'n');
    await expect.poll(() => committed(h.ctx, pairId).untranslated).toEqual([{ side: 'src', index: 4 }]);
    expect(gold()).toEqual(['0-0', '1-1']);
    await tok('src', 2).click();
    await tok('tgt', 1).click();
    await expect.poll(gold).toEqual(['0-0', '1-1', '2-1']);
    await saved();
    await h.screenshot('11-editor-line');
    await press('?');
    await page.getByRole('dialog', { name: 'Editor shortcuts' }).getByText('mark the pair done and open the next').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Editor shortcuts' }).waitFor({ state: 'detached' });
  });

  it('undoes and redoes from the edit log', async () => {
    await press('Control+z', 'Control+z');
    await expect.poll(gold).toEqual(['0-0', '1-1', expect.stringMatching(/^4-\d+p$/)]);
    expect(committed(h.ctx, pairId).untranslated).toEqual([]);
    await press('Control+z', 'Control+z');
    await expect.poll(gold).toEqual(['0-0', '1-1', '2-1', expect.stringMatching(/^4-\d+$/)]);
    await press('Control+Shift+z');
    await expect.poll(gold).toEqual(['0-0', '1-1', '2-1', expect.stringMatching(/^4-\d+p$/)]);
    await press('Control+Shift+z');
    await expect.poll(gold).toEqual(['0-0', '1-1', expect.stringMatching(/^4-\d+p$/)]);
    await saved();
  });

  it('splits and merges a token with S and M, re-indexing links', async () => {
    const before = committed(h.ctx, pairId);
    const at = before.srcTokens.findIndex(
      (t, i) => i > 0 && [...new Intl.Segmenter('lo', { granularity: 'grapheme' }).segment(t.text)].length >= 3,
    );
    await tok('src', at).click({ modifiers: ['Shift'] });
    await tok('src', at).click({ modifiers: ['Shift'] });
    await press('s');
    const dialog = page.getByRole('dialog', { name: /^Split/ });
    await dialog.getByRole('option').first().click();
    await expect.poll(() => committed(h.ctx, pairId).srcTokens.length).toBe(before.srcTokens.length + 1);
    const shifted = before.gold.flatMap((l) => (l.s > at ? [l.s + 1] : l.s === at ? [at, at + 1] : [l.s]));
    expect(
      committed(h.ctx, pairId)
        .gold.map((l) => l.s)
        .sort((a, b) => a - b),
    ).toEqual(shifted.sort((a, b) => a - b));
    await press('m');
    await expect.poll(() => committed(h.ctx, pairId).srcTokens.map((t) => t.text)).toEqual(before.srcTokens.map((t) => t.text));
    expect(committed(h.ctx, pairId).gold).toEqual(before.gold);
    // The view, too, is back to the merged tokens before the next test reads it.
    await expect.poll(() => page.locator('[data-testid="line-view"] [data-side="src"][data-index]').count()).toBe(before.srcTokens.length);
    await saved();
  });

  it('accepts and rejects suggestions; rejected ones are not shown again', async () => {
    const panel = page.getByTestId('suggestions');
    // Pin each suggestion by its link: `.first()` re-resolves at click time, and the list can
    // re-render in between.
    const suggestion = (link: string) => panel.locator(`[data-testid="suggestion"][data-link="${link}"]`);
    const accepted = (await panel.getByTestId('suggestion').first().getAttribute('data-link'))!;
    await suggestion(accepted)
      .getByRole('button', { name: /^Accept/ })
      .click();
    await expect.poll(gold).toContain(accepted);
    await panel.locator(`[data-link="${accepted}"]`).waitFor({ state: 'detached' });
    const rejected = (await panel.getByTestId('suggestion').first().getAttribute('data-link'))!;
    await suggestion(rejected)
      .getByRole('button', { name: /^Reject/ })
      .click();
    await expect.poll(() => committed(h.ctx, pairId).rejected.map((r) => `${r.s}-${r.t}`)).toEqual([rejected]);
    await panel.locator(`[data-link="${rejected}"]`).waitFor({ state: 'detached' });
    await panel.getByLabel('Threshold').fill('0');
    await panel.getByRole('button', { name: /^Accept \d+$/ }).click();
    await panel.getByText('No open suggestions.').waitFor();
    const model = committed(h.ctx, pairId)
      .alignments.find((a) => a.alignmentId === modelId)!
      .links.map((l) => `${l.s}-${l.t}`);
    expect(model.filter((k) => k !== rejected).every((k) => committed(h.ctx, pairId).gold.some((l) => `${l.s}-${l.t}` === k))).toBe(true);
    await press('Control+z');
    await expect.poll(() => committed(h.ctx, pairId).gold.length).toBeLessThan(model.length);
    await saved();
  });

  it('toggles a link from the matrix view with a click and with Space', async () => {
    await page.getByRole('button', { name: 'Matrix' }).click();
    const matrix = page.getByTestId('matrix-view');
    await matrix.locator('rect.hit').waitFor();
    const rejected = committed(h.ctx, pairId).rejected.map((r) => `${r.s}-${r.t}`);
    expect(await matrix.locator('path.rejected').evaluateAll((els) => els.map((e) => e.getAttribute('data-rejected')))).toEqual(rejected);
    const has = (s: number, t: number) => committed(h.ctx, pairId).gold.some((l) => l.s === s && l.t === t);
    const had = has(0, 2);
    const had12 = has(1, 2);
    const box = (await matrix.locator('rect.hit').boundingBox())!;
    const size = box.height / committed(h.ctx, pairId).srcTokens.length;
    await page.mouse.click(box.x + size * 2.5, box.y + size * 0.5);
    await expect.poll(() => has(0, 2)).toBe(!had);
    await page.getByTestId('editor').locator('[role="grid"]').focus();
    await press('ArrowDown', 'Space');
    await expect.poll(() => has(1, 2)).toBe(!had12);
    await saved();
    await h.screenshot('12-editor-matrix');
  });

  it('marks the pair done with Enter (a second Enter when suggestions are open) and opens the next; PgUp/PgDn move without marking', async () => {
    await page.getByTestId('editor').locator('[role="grid"]').focus();
    await press('Enter');
    // Suggestions are still open on this pair (one accept was undone): Enter warns first.
    await page
      .getByTestId('editor-warning')
      .filter({ hasText: /still open\. Press Enter again/ })
      .waitFor();
    expect(h.ctx.store!.getPair(pairId).status).not.toBe('done');
    // Closing the warning withdraws it: the next Enter warns again instead of marking the pair done unseen.
    await page.getByTestId('editor-warning').getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('editor-warning').waitFor({ state: 'detached' });
    await page.getByTestId('editor').locator('[role="grid"]').focus();
    await press('Enter');
    await page
      .getByTestId('editor-warning')
      .filter({ hasText: /still open\. Press Enter again/ })
      .waitFor();
    expect(h.ctx.store!.getPair(pairId).status).not.toBe('done');
    await press('Enter');
    await page
      .getByTestId('editor-pair')
      .filter({ hasNotText: `#${pairId}` })
      .waitFor();
    expect(h.ctx.store!.getPair(pairId).status).toBe('done');
    const nextId = Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
    expect(nextId).toBeGreaterThan(pairId);
    // The bulk-accept threshold set to 0 on the previous pair does not carry over.
    expect(await page.getByTestId('suggestions').getByLabel('Threshold').inputValue()).toBe('0.9');
    const statusOfNext = h.ctx.store!.getPair(nextId).status;
    await press('PageUp');
    await page
      .getByTestId('editor-pair')
      .filter({ hasText: `#${pairId}` })
      .waitFor();
    await press('PageDown');
    await page
      .getByTestId('editor-pair')
      .filter({ hasText: `#${nextId}` })
      .waitFor();
    expect(h.ctx.store!.getPair(nextId).status).toBe(statusOfNext);
    // A toolbar click leaves the keyboard with the editor: Ctrl+Z still undoes after it.
    await page.getByRole('button', { name: 'Matrix' }).click();
    await page.getByRole('button', { name: 'Lines' }).click();
    expect(await page.evaluate('document.activeElement?.getAttribute("role")')).toBe('grid');
  });

  it('orders the review queue by uncertainty, and by disagreement', async () => {
    await page.getByRole('tab', { name: 'Review queue' }).click();
    const items = page.getByTestId('queue').getByTestId('queue-item');
    await items.first().waitFor();
    const shown = (await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-pair-id'))))).slice(0, 20);
    const expected = reviewQueue(h.ctx.store!, {
      alignmentId: modelId,
      status: ['new', 'in-review', 'flagged'],
      offset: 0,
      limit: 20,
    }).items;
    expect(shown).toEqual(expected.map((i) => i.id));
    expect(expected.every((x, k) => k === 0 || expected[k - 1].score >= x.score)).toBe(true);
    await h.screenshot('15-queue');
    // Done pairs are left out by default: the pair marked done above shows once Done is pressed.
    const queueFilter = page.getByTestId('queue').getByRole('group', { name: 'Filter by status' });
    expect(await queueFilter.getByRole('button', { name: /Done/ }).getAttribute('aria-pressed')).toBe('false');
    await page.getByLabel('Edited by annotator').fill('souk');
    await page.getByLabel('Edited by annotator').press('Enter');
    await queueFilter.getByRole('button', { name: /Done/ }).click();
    await expect.poll(async () => items.count()).toBe(1);
    await items.first().click();
    await page
      .getByTestId('editor-pair')
      .filter({ hasText: `#${pairId}` })
      .waitFor();

    // A second model that lost its links on pairs 5 and 9: those disagree most.
    const store = h.ctx.store!;
    const other = createAlignment(store, { origin: 'model', name: 'second model' });
    dbOf(store)
      .prepare(
        `INSERT INTO links (alignment_id, pair_id, s, t, kind, score) SELECT ?, pair_id, s, t, kind, score FROM links
      WHERE alignment_id = ? AND pair_id NOT IN (5, 9)`,
      )
      .run(other, modelId);
    await page.reload();
    await page.getByRole('tab', { name: 'Review queue' }).click();
    await page.getByLabel('Queue model').selectOption(String(modelId));
    await page.getByLabel('Queue order').selectOption(String(other));
    await page.locator('[data-testid="queue-item"][data-pair-id="5"]').first().waitFor();
    const disagreeing = await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-pair-id'))));
    expect(disagreeing.slice(0, 2)).toEqual([5, 9]);
    expect(disagreeing).toEqual(
      reviewQueue(store, {
        alignmentId: modelId,
        versusId: other,
        status: ['new', 'in-review', 'flagged'],
        offset: 0,
        limit: 200,
      }).items.map((i) => i.id),
    );
  });

  it('bulk-links a word pair from the lexicon: the model-supported links checked, the rest listed for review, one to one, undone as one', async () => {
    await page.getByRole('tab', { name: 'Lexicon' }).click();
    const entry = page
      .getByTestId('lexicon-entry')
      .filter({ has: page.locator('td:nth-child(3)', { hasText: /^0$/ }) })
      .first();
    const src = (await entry.getAttribute('data-src'))!;
    const tgt = (await entry.getAttribute('data-tgt'))!;
    await entry.getByRole('button').click();
    await page.getByTestId('occurrence').first().waitFor();
    await page.getByRole('button', { name: 'Link all…', exact: true }).click();
    const preview = page.getByTestId('bulk-preview');
    const rows = preview.getByTestId('bulk-link');
    await rows.first().waitFor();
    const n = await rows.count();
    const supported = preview.locator('[data-testid="bulk-link"][data-by="model"]');
    const review = preview.locator('[data-testid="bulk-link"][data-by="unsupported"]');
    const s = await supported.count();
    expect(s).toBeGreaterThan(2);
    expect(s + (await review.count())).toBe(n);
    // Only the links the model supports are checked; the preview says how many are added and how many listed for review.
    expect(await preview.getByTestId('bulk-checked').textContent()).toBe(String(s));
    expect(await preview.getByTestId('bulk-supported').textContent()).toBe(String(s));
    expect(await preview.getByTestId('bulk-review').textContent()).toBe(String(n - s));
    for (const box of await review.getByRole('checkbox').all()) expect(await box.isChecked()).toBe(false);
    if (n > s) expect(await review.first().textContent()).toContain('review: no model link between these occurrences');
    // Untick the second supported link: it must not be applied.
    const dropped = supported.nth(1);
    const droppedPair = Number(await dropped.getAttribute('data-pair-id'));
    const droppedLink = (await dropped.getAttribute('data-link'))!;
    await dropped.getByRole('checkbox').uncheck();
    expect(await preview.getByTestId('bulk-checked').textContent()).toBe(String(s - 1));
    await h.screenshot('13-lexicon-preview');
    const keys = (els: { getAttribute(name: string): string | null }[]) =>
      els.map((e) => `${e.getAttribute('data-pair-id')}:${e.getAttribute('data-link')}`);
    const proposed = (await supported.evaluateAll(keys)).filter((k) => k !== `${droppedPair}:${droppedLink}`);
    const listed = await review.evaluateAll(keys);
    const goldOf = (id: number) => committed(h.ctx, id).gold.map((l) => `${l.s}-${l.t}`);
    await preview.getByRole('button', { name: `Apply ${s - 1} links` }).click();
    await page.getByTestId('bulk-message').waitFor();
    expect(goldOf(droppedPair)).not.toContain(droppedLink);
    for (const key of proposed) {
      const [id, link] = key.split(':');
      expect(goldOf(Number(id))).toContain(link);
    }
    // A pairing listed for review and left unchecked is not written.
    for (const k of listed) expect(goldOf(Number(k.split(':')[0]))).not.toContain(k.split(':')[1]);
    // One to one: no occurrence of the two words is linked twice by the bulk fix.
    for (const id of new Set(proposed.map((k) => Number(k.split(':')[0])))) {
      const added = proposed.filter((k) => k.startsWith(`${id}:`)).map((k) => k.split(':')[1]);
      expect(new Set(added.map((l) => l.split('-')[0])).size).toBe(added.length);
      expect(new Set(added.map((l) => l.split('-')[1])).size).toBe(added.length);
    }
    await h.screenshot('14-lexicon-applied');
    await page.getByTestId('concordance').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => proposed.every((k) => !goldOf(Number(k.split(':')[0])).includes(k.split(':')[1]))).toBe(true);
    const first = page.getByTestId('occurrence').first();
    const firstId = (await first.getAttribute('data-pair-id'))!;
    await first.getByRole('button', { name: `#${firstId}` }).click();
    await page
      .getByTestId('editor-pair')
      .filter({ hasText: `#${firstId}` })
      .waitFor();
    const words = committed(h.ctx, Number(firstId));
    expect(words.srcTokens.some((t) => t.text.toLowerCase() === src) && words.tgtTokens.some((t) => t.text.toLowerCase() === tgt)).toBe(
      true,
    );
  });

  it('reports agreement between the annotator and the model', async () => {
    await page.getByRole('tab', { name: 'Agreement' }).click();
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('agreement-aer').waitFor();
    expect(await page.getByTestId('agreement-overall').textContent()).toMatch(/Precision\s*\d/);
    // Only pairs In review or Done count as gold; the pairs with partial gold are counted apart.
    expect(await page.getByTestId('agreement-gold-rule').textContent()).toMatch(/Gold counts on pairs In review or Done/);
    await h.screenshot('15b-agreement-gold-rule');
    expect(h.pageErrors).toEqual([]);
  });

  it('exports Pharaoh holding one alignment (the gold by default), or one file per alignment', async () => {
    const store = h.ctx.store!;
    const goldId = store.info().alignments.find((a) => a.origin === 'gold' && a.annotator === 'souk')!.id;
    const goldPairs = (
      dbOf(store).prepare('SELECT count(DISTINCT pair_id) AS n FROM links WHERE alignment_id = ?').get(goldId) as { n: number }
    ).n;
    await page.getByRole('tab', { name: 'Pairs' }).click();
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export the corpus' });
    await dialog.getByLabel('Format').selectOption('pharaoh');
    await dialog.getByLabel('Write on the machine running').check();
    expect(await dialog.getByLabel('Links from').inputValue()).toBe(String(goldId));
    const out = join(h.dir, 'gold.pharaoh');
    await dialog.getByLabel('Output file').fill(out);
    await h.screenshot('16-export-pharaoh');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor();
    const lines = readFileSync(out, 'utf8').split('\n').slice(0, -1);
    expect(lines).toHaveLength(store.info().pairs);
    expect(lines.filter((l) => l !== '')).toHaveLength(goldPairs);

    await dialog.getByLabel('Links from').selectOption('each');
    await dialog.getByLabel('Output file').fill(join(h.dir, 'all.pharaoh'));
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor();
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    const files = readdirSync(h.dir).filter((f) => /^all\..+\.pharaoh$/.test(f));
    expect(files).toEqual(expect.arrayContaining(['all.gold-souk.pharaoh']));
    expect(files).toHaveLength(store.info().alignments.length);
    expect(readFileSync(join(h.dir, 'all.gold-souk.pharaoh'), 'utf8')).toBe(readFileSync(out, 'utf8'));
    expect(h.pageErrors).toEqual([]);
  });

  it('wraps a long pair over bands that fit the view, links inside a band, and W switches to one scrolling row', async () => {
    const store = h.ctx.store!;
    const longest = dbOf(store).prepare('SELECT id FROM pairs ORDER BY length(src_text) + length(tgt_text) DESC LIMIT 1').get() as {
      id: number;
    };
    const detail = store.getPair(longest.id);
    await page.getByRole('tab', { name: 'Pairs' }).click();
    await page.getByPlaceholder(/Search text/).fill(`#${longest.id}`);
    await page.getByTestId('pair-list').locator(`[data-pair-id="${longest.id}"]`).click();
    await page.keyboard.press('Enter');
    await page
      .getByTestId('editor-pair')
      .filter({ hasText: `#${longest.id}` })
      .waitFor();
    const view = page.getByTestId('line-view');
    await expect.poll(async () => Number(await view.getAttribute('data-bands'))).toBeGreaterThan(3);
    // Every token once, nothing beyond the view's right edge, no sideways scrolling.
    expect(await view.locator('[data-side="src"][data-index]').count()).toBe(detail.srcTokens.length);
    expect(await view.locator('[data-side="tgt"][data-index]').count()).toBe(detail.tgtTokens.length);
    const fits = await view.evaluate((el) => {
      const right = el.getBoundingClientRect().right;
      const over = [...el.querySelectorAll('[data-index]')].filter((t) => t.getBoundingClientRect().right > right + 0.5).length;
      return { over, scroll: el.scrollWidth - el.clientWidth };
    });
    expect(fits).toEqual({ over: 0, scroll: 0 });
    await h.screenshot('17-editor-wrapped');
    // A link in the last band: clicked there, drawn there, inside its band.
    const last = view.locator('[data-band]').last();
    const s = Number(await last.locator('[data-side="src"]').last().getAttribute('data-index'));
    const t = Number(await last.locator('[data-side="tgt"]').last().getAttribute('data-index'));
    await last.locator(`[data-side="src"][data-index="${s}"]`).click();
    await last.locator(`[data-side="tgt"][data-index="${t}"]`).click();
    await expect.poll(() => linkKeys(committed(h.ctx, longest.id))).toContain(`${s}-${t}`);
    const drawn = view.locator(`path.gold[data-link="${s}-${t}"]`);
    await drawn.waitFor({ state: 'attached' });
    expect(await drawn.getAttribute('class')).not.toMatch(/\bfar\b/);
    const inside = await view.evaluate(
      (el, [s, t]) => {
        const box = (q: string) => el.querySelector(q)!.getBoundingClientRect();
        const path = box(`path.gold[data-link="${s}-${t}"]`);
        return (
          path.top >= box(`[data-side="src"][data-index="${s}"]`).bottom - 1 &&
          path.bottom <= box(`[data-side="tgt"][data-index="${t}"]`).top + 1
        );
      },
      [s, t],
    );
    expect(inside).toBe(true);
    await h.screenshot('18-editor-wrapped-linked');
    // A suggestion shows its positions, and hovering it lights its tokens and link up.
    const first = page.getByTestId('suggestion').first();
    const [fs, ft] = (await first.getAttribute('data-link'))!.split('-');
    expect(await first.locator('sub').allTextContents()).toEqual([fs, ft]);
    await first.hover();
    await expect.poll(() => view.locator(`[data-side="src"][data-index="${fs}"]`).getAttribute('class')).toMatch(/\bhovered\b/);
    expect(await view.locator(`[data-side="tgt"][data-index="${ft}"]`).getAttribute('class')).toMatch(/\bhovered\b/);
    expect(await view.locator(`path.suggestion.hover[data-link="${fs}-${ft}"]`).count()).toBe(1);
    await h.screenshot('21-editor-suggestion-hover');
    await page.mouse.move(0, 0);
    // W: one row that scrolls sideways, the same link drawn; W again wraps.
    await page.getByTestId('editor').locator('[role="grid"]').focus();
    await press('w');
    await expect.poll(async () => Number(await view.getAttribute('data-bands'))).toBe(1);
    expect(await view.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await view.locator(`path.gold[data-link="${s}-${t}"]`).count()).toBe(1);
    await press('w');
    await expect.poll(async () => Number(await view.getAttribute('data-bands'))).toBeGreaterThan(3);
    await press('Control+z');
    await expect.poll(() => linkKeys(committed(h.ctx, longest.id))).not.toContain(`${s}-${t}`);
    expect(h.pageErrors).toEqual([]);
  });

  it("tags links with 1–9 from the project's set, edits the set, and keeps a note on the pair", async () => {
    const id = Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
    const tagOf = () => committed(h.ctx, id).gold.find((l) => l.s === 0 && l.t === 0)?.tag ?? null;
    await tok('src', 0).click();
    await tok('tgt', 0).click();
    await expect.poll(() => linkKeys(committed(h.ctx, id))).toContain('0-0');
    await press('2');
    await expect.poll(tagOf).toBe('function');
    const label = page.locator('[data-testid="line-view"] [data-tag-link="0-0"] text.tag');
    await expect.poll(() => label.textContent()).toBe('FUN');
    await press('2');
    await expect.poll(tagOf).toBeNull();
    await expect.poll(() => label.count()).toBe(0);
    await press('1');
    await expect.poll(tagOf).toBe('semantic');
    // The project's set: "deixis" first, so key 1 gives it.
    const side = page.getByTestId('pair-annotations');
    await side.getByRole('button', { name: 'Edit…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link tags' });
    await dialog.getByLabel('Tags, one per line').fill('deixis\nsemantic\nfunction');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await side.getByTestId('link-tags').filter({ hasText: 'deixis' }).waitFor();
    expect(h.ctx.store!.info().linkTags).toEqual(['deixis', 'semantic', 'function']);
    await page.getByTestId('editor').locator('[role="grid"]').focus();
    await press('1');
    await expect.poll(tagOf).toBe('deixis');
    await expect.poll(() => label.textContent()).toBe('DEI');
    // A note on the pair, saved when the field loses focus.
    const note = 'ບໍ່ແນ່ໃຈ: "ປະຈຳ" here is a title, not "regular"';
    await side.getByTestId('pair-note').fill(note);
    await h.screenshot('19-editor-tags-note');
    await tok('src', 1).click();
    await expect.poll(() => h.ctx.store!.getPair(id).note).toBe(note);
    await press('Escape');
    await tok('src', 0).click();
    await press('Delete');
    await expect.poll(() => linkKeys(committed(h.ctx, id))).not.toContain('0-0');
    expect(h.pageErrors).toEqual([]);
  });

  it("adjudicates two annotators side by side into the adjudicated gold, never into a compared annotator's own, and annotators are blind to each other by default", async () => {
    const store = h.ctx.store!;
    const id = store.listPairs({}, 0, 5).pairs[4].id;
    const link = (s: number, t: number, kind: 'sure' | 'possible' = 'sure') => ({ s, t, kind, score: null });
    // The adjudicator (souk, the app's annotator) is one of the two compared annotators (issue 43 #3).
    setGold(store, 'souk', id, [link(0, 0), link(1, 1), link(2, 2)], [{ side: 'src', index: 3 }]);
    setGold(store, 'bob', id, [link(0, 0), link(1, 1, 'possible'), link(2, 3)], [{ side: 'src', index: 3 }]);
    setRejected(store, 'bob', id, [{ s: 4, t: 4 }]);
    store.updatePair('bob', id, { status: 'done', note: "bob's note" });
    // Blind by default: souk's editor holds neither bob's gold nor his rejection, status or note.
    const golds = store.info().alignments.filter((a) => a.origin === 'gold');
    const seen = committed(h.ctx, id);
    expect(seen.alignments.filter((a) => golds.some((g) => g.id === a.alignmentId && g.annotator !== 'souk'))).toEqual([]);
    expect(seen.rejected).toEqual([]);
    expect(seen).toMatchObject({ status: 'new', note: '' });
    expect(store.info().annotatorsShare).toBe(false);

    await page.getByRole('tab', { name: 'Agreement' }).click();
    const souk = golds.find((g) => g.annotator === 'souk')!.id;
    const bob = golds.find((g) => g.annotator === 'bob')!.id;
    await page.getByLabel('Reference').selectOption(String(souk));
    await page.getByLabel('Candidate').selectOption(String(bob));
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('agreement-aer').waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `#${id}` })
      .getByRole('button', { name: 'Adjudicate' })
      .click();
    const panel = page.getByTestId('adjudication');
    await panel.locator('[data-cell="2-3"]').waitFor();
    expect(await panel.locator('tr.differ').count()).toBe(3); // 1-1 kinds differ, 2-2 and 2-3 one side each
    await panel.getByRole('button', { name: 'Combine' }).click();
    await h.screenshot('20-adjudication');
    // The adjudicator drops 2-2 (souk only) and keeps the rest.
    await panel.locator('[data-cell="2-2"] input[type="checkbox"]').uncheck();
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByTestId('adjudication-state').filter({ hasText: 'Saved' }).waitFor();
    const adjudicatedKeys = () =>
      adjudication(store, id, souk, bob).result.links.map((l) => `${l.s}-${l.t}${l.kind === 'possible' ? 'p' : ''}`);
    await expect.poll(adjudicatedKeys).toEqual(['0-0', '1-1p', '2-3p']);
    expect(adjudication(store, id, souk, bob).result.untranslated).toEqual([{ side: 'src', index: 3 }]);
    // souk's own gold is as souk left it.
    expect(linkKeys(committed(h.ctx, id))).toEqual(['0-0', '1-1', '2-2']);
    // The adjudicated gold against each annotator.
    await panel.getByRole('button', { name: '← Report' }).click();
    await page.getByRole('button', { name: 'Adjudicated vs each annotator' }).click();
    const each = page.getByTestId('adjudicated-vs-each');
    await each.getByRole('row').filter({ hasText: 'bob' }).waitFor();
    expect(await each.getByRole('row').filter({ hasText: 'souk' }).textContent()).toContain('66.7%');
    await h.screenshot('20b-adjudicated-vs-each');
    // Shared: the annotators' work shows in each other's editors.
    await page.getByLabel("Annotators see each other's gold and rejections").check();
    await expect.poll(() => store.info().annotatorsShare).toBe(true);
    expect(committed(h.ctx, id).rejected).toEqual([{ s: 4, t: 4 }]);
    await page.getByLabel("Annotators see each other's gold and rejections").uncheck();
    await expect.poll(() => store.info().annotatorsShare).toBe(false);
    expect(h.pageErrors).toEqual([]);
  });
});
