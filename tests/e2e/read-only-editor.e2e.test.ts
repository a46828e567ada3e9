// A project on a read-only mount, browsed in the alignment editor: the editor says it is
// read-only, offers no edit (no link commands, undo, Done, accept/reject, status or note
// changes, in the editor or the pair list), and clicks and keys that would edit change nothing; moving, the matrix view and
// the next pair still work. The mount is a real read-only bind mount, which needs root (as CI
// runs); elsewhere the file is skipped.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Link } from '../../src/shared/domain.ts';
import { dispatch } from '../../src/main/api/dispatch.ts';
import { createAlignment, goldAlignmentOf, linkInserter } from '../../src/main/store/alignments.ts';
import { committed, linkKeys, sampleProject } from './editor-fixture.ts';
import { startHarness, type Harness } from './harness.ts';

const sh = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
const canMount = process.getuid?.() === 0;

describe.skipIf(!canMount)('the editor on a read-only project', () => {
  let h: Harness;
  let mnt = '';
  let file = '';

  beforeAll(async () => {
    h = await startHarness('anna');
    const src = join(h.dir, 'src');
    mnt = join(h.dir, 'ro');
    mkdirSync(src);
    mkdirSync(mnt);
    await sampleProject(h.ctx, join(src, 'ro.mekong'));
    // anna's gold links on the first pair and a model alignment of it (the suggestions).
    const store = h.ctx.store!;
    const first = store.listPairs({}, 0, 1).pairs[0];
    const link = (s: number, t: number, score: number | null): Link => ({ s, t, kind: 'sure', score });
    store.transaction(() => {
      linkInserter(store, goldAlignmentOf(store, 'anna'))(first.id, [link(0, 0, null), link(1, 1, null)]);
      linkInserter(store, createAlignment(store, { origin: 'model', name: 'model' }))(first.id, [
        link(0, 0, 0.9),
        link(2, 2, 0.8),
        link(3, 2, 0.6),
      ]);
    });
    expect((await dispatch(h.ctx, 'project.close', {})).ok).toBe(true);
    expect(sh('mount', '--bind', src, mnt).status).toBe(0);
    expect(sh('mount', '-o', 'remount,bind,ro', mnt).status).toBe(0);
    file = join(mnt, 'ro.mekong');
    expect(await dispatch(h.ctx, 'project.open', { path: file })).toMatchObject({ ok: true, value: { readOnly: true } });
    await h.page.reload();
  });

  afterAll(async () => {
    await dispatch(h.ctx, 'project.close', {});
    sh('umount', mnt);
    await h?.close();
  });

  test('shown read-only: no edit affordances, and clicks and keys that would edit change nothing', async () => {
    const { page } = h;
    const before = readFileSync(file);
    await page.getByTestId('read-only').waitFor();
    const firstRow = page.getByTestId('pair-list').locator('[role="row"]').first();
    await firstRow.click();
    // The list's status keys and selects change nothing either.
    expect(await firstRow.locator('select').first().isDisabled()).toBe(true);
    await page.keyboard.press('3');
    const detail = page.getByTestId('pair-detail');
    expect(await detail.getByLabel('Status').isDisabled()).toBe(true);
    expect(await detail.getByLabel('Split').isDisabled()).toBe(true);
    await detail.getByRole('button', { name: 'View in editor' }).click();

    const editor = page.getByTestId('editor');
    await page.getByTestId('line-view').waitFor();
    await editor.getByTestId('editor-read-only').waitFor();
    const pairId = Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''));
    const gold = linkKeys(committed(h.ctx, pairId));
    expect(gold).toEqual(['0-0', '1-1']);

    // No edit affordances.
    for (const name of ['Sure/possible', 'Not translated', 'Split…', 'Merge →', 'Undo', 'Redo', 'Done → next'])
      expect(await editor.getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await page.getByTestId('save-state').count()).toBe(0);
    expect(await editor.getByTestId('editor-read-only-badge').textContent()).toBe('Read-only');
    expect(await editor.getByLabel('Pair status').isDisabled()).toBe(true);
    expect(await page.getByTestId('pair-note').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('button', { name: 'Edit…' }).isDisabled()).toBe(true);
    const suggestions = page.getByTestId('suggestion');
    expect(await suggestions.count()).toBe(2);
    expect(await page.getByTestId('suggestions').getByRole('button').count()).toBe(0);

    // Clicks and keys that would edit do nothing; the cursor still moves.
    const tok = (side: string, i: number) => page.locator(`[data-testid="line-view"] [data-side="${side}"][data-index="${i}"]`);
    await tok('src', 2).click();
    await tok('tgt', 2).click();
    await editor.locator('[role="grid"]').focus();
    for (const key of ['Space', 'p', 'Delete', 'n', 'a', 'r', '1', 'Enter', 'Control+z']) await page.keyboard.press(key);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await h.screenshot('read-only-editor-lines');

    await page.getByRole('button', { name: 'Matrix' }).click();
    const matrix = page.getByTestId('matrix-view');
    // the matrix may draw again as the page settles: its hit area's box once it stays laid out
    let hit: { x: number; y: number; width: number; height: number } | null = null;
    await expect.poll(async () => (hit = await matrix.locator('rect.hit').boundingBox())).not.toBeNull();
    const box = hit!;
    const size = box.height / committed(h.ctx, pairId).srcTokens.length;
    await page.mouse.click(box.x + size * 2.5, box.y + size * 2.5);
    await editor.locator('[role="grid"]').focus();
    await page.keyboard.press('Space');
    expect(await page.getByText('read-only: links cannot be changed').count()).toBe(1);
    await h.screenshot('read-only-editor-matrix');

    expect(linkKeys(committed(h.ctx, pairId))).toEqual(gold);
    expect(committed(h.ctx, pairId).rejected).toEqual([]);
    expect(committed(h.ctx, pairId).status).toBe('new');
    // Nothing was even tried: no refused call, no error shown.
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(h.pageErrors).toEqual([]);
    expect(readFileSync(file).equals(before)).toBe(true);

    // Looking goes on: the next pair opens.
    await page.keyboard.press('PageDown');
    await expect.poll(async () => Number((await page.getByTestId('editor-pair').textContent())!.replace(/\D/g, ''))).not.toBe(pairId);
  });
});
