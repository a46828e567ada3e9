// `npm run bench -- editor [--edits N] [--pairs N] [--open-pairs N]`: the alignment editor's speed.
//  1. edit → committed: N gold-link edits through the store (setGold: apply + log, in one
//     SQLite transaction, then read back), on a project file; p50/p99/max in ms.
//  2. a 100,000-pair list scrolled in Chromium (browser mode, the built renderer): the pair
//     list's scrollTop moved every frame for ~3 s; frame intervals p50/p95/p99/max and
//     frames over 50 ms.
//  3. opening a project of --open-pairs pairs (default 1,000,000; 0 skips) from the start
//     screen's Open project form: the time from the click to the first row of the pair list
//     painted, and the store's part of it (open, info, first page).
//  4. a 120×120-token pair in the matrix view: d3 draw time (data-draw-ms, the whole
//     redraw including label layout) over 20 redraws (zoom steps), and the time from the
//     key press to the next painted frame.
import { benchOptions, numberOption } from './bench-options.ts';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Link } from '../../src/shared/domain.ts';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import { beginImport, finishImport } from '../../src/main/store/imports.ts';
import { pairInserter, type NewPair } from '../../src/main/store/pairs.ts';
import { createAlignment, linkInserter } from '../../src/main/store/alignments.ts';
import { setGold } from '../../src/main/review/editor.ts';
import { encodeOffsets } from '../../src/main/text/offsets.ts';
import { pretokenized } from '../../src/main/text/segment.ts';
import { startHarness } from '../e2e/harness.ts';

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const fmt = (x: number) => x.toFixed(2);

function newPair(src: string, tgt: string): NewPair {
  return { src, tgt, srcOffsets: encodeOffsets(pretokenized(src)), tgtOffsets: encodeOffsets(pretokenized(tgt)) };
}

function fill(store: ProjectStore, n: number, make: (i: number) => NewPair): number[] {
  const importId = beginImport(store, 'bench', 'tsv');
  const insert = pairInserter(store, importId);
  const ids: number[] = [];
  for (let i = 0; i < n; i += 5000) {
    ids.push(...store.transaction(() => insert(Array.from({ length: Math.min(5000, n - i) }, (_, k) => make(i + k)))));
  }
  finishImport(store, importId, true);
  return ids;
}

function benchEdits(dir: string, edits: number): void {
  const store = ProjectStore.create(join(dir, 'edits.mekong'), { name: 'edits', srcLang: 'lo', tgtLang: 'th' });
  const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
  const ids = fill(store, 2000, () => newPair(words, words));
  const times: number[] = [];
  for (let k = 0; k < edits; k++) {
    const pairId = ids[k % ids.length];
    const links: Link[] = Array.from({ length: 1 + (k % 25) }, (_, i) => ({ s: i, t: (i + k) % 30, kind: 'sure', score: null }));
    const started = performance.now();
    setGold(store, 'bench', pairId, links, []);
    times.push(performance.now() - started);
  }
  store.close();
  console.log(
    `edit → committed (${edits} gold edits, WAL, synchronous=NORMAL): p50 ${fmt(pct(times, 50))} ms · p99 ${fmt(pct(times, 99))} ms · max ${fmt(Math.max(...times))} ms`,
  );
}

const SCROLL = `(async () => {
  const el = document.querySelector('[data-testid="pair-list"]');
  const frames = [];
  let last = performance.now();
  const end = last + 3000;
  while (performance.now() < end) {
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    frames.push(now - last);
    last = now;
    el.scrollTop += 900;
  }
  return frames;
})()`;

async function benchUi(pairs: number): Promise<void> {
  const h = await startHarness('bench');
  try {
    const store = ProjectStore.create(join(h.dir, 'list.mekong'), { name: 'list', srcLang: 'lo', tgtLang: 'th' });
    fill(store, pairs, (i) => newPair(`${i + 1} ສະບາຍ ດີ ປີ ໃໝ່ ແລະ ຂອບໃຈ`, `สวัสดี ปี ใหม่ และ ขอบคุณ ${i + 1}`));
    const big = Array.from({ length: 120 }, (_, i) => `ລາວ${i}`).join(' ');
    const [matrixPair] = fill(store, 1, () => newPair(big, big.replaceAll('ລາວ', 'ไทย')));
    const model = createAlignment(store, { origin: 'model', name: 'bench model' });
    const links = Array.from({ length: 360 }, (_, k) => ({
      s: k % 120,
      t: (k * 7) % 120,
      kind: 'sure' as const,
      score: ((k * 37) % 100) / 100,
    }));
    store.transaction(() => linkInserter(store, model)(matrixPair, [...new Map(links.map((l) => [`${l.s}:${l.t}`, l])).values()]));
    h.ctx.store = store;
    await h.page.reload();
    const { page } = h;
    await page.getByTestId('pair-list').locator('[role="row"] .tok').first().waitFor();
    const frames = (await page.evaluate(SCROLL)) as number[];
    console.log(
      `${pairs.toLocaleString('en')}-pair list scroll (${frames.length} frames, 900 px/frame): p50 ${fmt(pct(frames, 50))} ms · p95 ${fmt(pct(frames, 95))} ms · p99 ${fmt(pct(frames, 99))} ms · max ${fmt(Math.max(...frames))} ms · >50 ms: ${frames.filter((f) => f > 50).length}`,
    );
    await benchMatrix(page, matrixPair);
  } finally {
    await h.close();
  }
}

async function benchOpen(pairs: number): Promise<void> {
  const h = await startHarness('bench');
  try {
    const path = join(h.dir, 'open.mekong');
    const made = ProjectStore.create(path, { name: 'open', srcLang: 'lo', tgtLang: 'th' });
    fill(made, pairs, (i) => newPair(`${i + 1} ສະບາຍ ດີ ປີ ໃໝ່ ແລະ ຂອບໃຈ ຫຼາຍໆ`, `สวัสดี ปี ใหม่ และ ขอบคุณ มาก ${i + 1}`));
    made.close();
    const t0 = performance.now();
    const store = ProjectStore.open(path);
    const t1 = performance.now();
    store.info();
    const t2 = performance.now();
    store.listPairs({}, 0, 200);
    const t3 = performance.now();
    store.close();
    const { page } = h;
    const form = page.getByRole('form', { name: 'Open a project' });
    await form.getByLabel('Project file').fill(path);
    const started = (await page.evaluate('performance.now()')) as number;
    await form.getByRole('button', { name: 'Open project' }).click();
    await page.getByTestId('pair-list').locator('[role="row"] .tok').first().waitFor();
    const painted = (await page.evaluate('new Promise((r) => requestAnimationFrame(() => r(performance.now())))')) as number;
    console.log(
      `${pairs.toLocaleString('en')}-pair project: Open project → first row painted ${fmt(painted - started)} ms (target < 1000); store: open ${fmt(t1 - t0)} ms, info ${fmt(t2 - t1)} ms, first page ${fmt(t3 - t2)} ms`,
    );
  } finally {
    await h.close();
  }
}

async function benchMatrix(page: import('playwright-core').Page, pairId: number): Promise<void> {
  await page.getByTestId('pair-list').press('End');
  await page.getByTestId('pair-list').locator(`[data-pair-id="${pairId}"][aria-selected="true"]`).waitFor();
  await page.getByTestId('pair-list').press('Enter');
  await page
    .getByTestId('editor-pair')
    .filter({ hasText: `#${pairId}` })
    .waitFor();
  await page.getByRole('button', { name: 'Matrix' }).click();
  await page.getByTestId('matrix-view').locator('rect.hit').waitFor();
  const draws: number[] = [];
  const painted: number[] = [];
  const grid = page.getByTestId('editor').locator('[role="grid"]');
  for (let k = 0; k < 20; k++) {
    const key = k % 2 === 0 ? '+' : '-';
    const t0 = (await page.evaluate('performance.now()')) as number;
    await grid.press(key);
    const t1 = (await page.evaluate('new Promise((r) => requestAnimationFrame(() => r(performance.now())))')) as number;
    painted.push(t1 - t0);
    draws.push(Number(await page.getByTestId('matrix-view').getAttribute('data-draw-ms')));
  }
  console.log(
    `120×120 matrix: d3 draw p50 ${fmt(pct(draws, 50))} ms · max ${fmt(Math.max(...draws))} ms; key → painted frame p50 ${fmt(pct(painted, 50))} ms · max ${fmt(Math.max(...painted))} ms`,
  );
}

export default async function editorBench(args: string[]): Promise<void> {
  const o = benchOptions('editor', args, {
    edits: { type: 'string', default: '5000' },
    pairs: { type: 'string', default: '100000' },
    'open-pairs': { type: 'string', default: '1000000' },
  });
  if (!o) return;
  const edits = numberOption('edits', o.edits)!;
  const pairs = numberOption('pairs', o.pairs)!;
  const openPairs = numberOption('open-pairs', o['open-pairs'])!;
  const root = join(import.meta.dirname, '../..');
  if (!existsSync(join(root, 'out/renderer/index.html'))) spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit' });
  const { mkdtempSync, rmSync } = await import('node:fs');
  const dir = mkdtempSync(join((await import('node:os')).tmpdir(), 'mekong-bench-'));
  try {
    benchEdits(dir, edits);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (openPairs > 0) await benchOpen(openPairs);
  await benchUi(pairs);
}
