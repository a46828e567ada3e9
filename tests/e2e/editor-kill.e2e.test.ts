// Never lose work: a `mekong serve` child process is killed (SIGKILL) in the middle of an
// editing session; after a restart the editor shows every edit the UI had shown as saved.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createContext } from '../../src/main/api/create-context.ts';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import { editorPair } from '../../src/main/review/editor.ts';
import { sampleProject } from './editor-fixture.ts';

const ROOT = join(import.meta.dirname, '../..');
const CHROMIUM = process.env.MEKONG_CHROMIUM ?? '/usr/bin/chromium';
const dir = mkdtempSync(join(tmpdir(), 'mekong-kill-'));
const project = join(dir, 'kill.mekong');
let browser: Browser;
let child: ChildProcess | null = null;
/** Every server started, so that none outlives the tests. */
const started: ChildProcess[] = [];

/** Starts `mekong serve` on the project; resolves to the URL it prints. */
function serve(port = 0, token?: string): Promise<string> {
  const fixed = token ? ['--token', token] : [];
  const proc = spawn(
    process.execPath,
    ['bin/mekong.js', 'serve', '--project', project, '--port', String(port), '--annotator', 'noy', ...fixed],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child = proc;
  started.push(proc);
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Mekong is at (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
}

async function openFirstPair(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.getByTestId('pair-list').locator('[role="row"]').first().click();
  await page.keyboard.press('Enter');
  await page.getByTestId('line-view').waitFor();
  return page;
}

const shownLinks = (page: Page) =>
  page.locator('[data-testid="line-view"] path.gold').evaluateAll((els) => els.map((e) => e.getAttribute('data-link')).sort());
const saved = (page: Page) => page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();

beforeAll(async () => {
  const ctx = createContext('browser', 'noy', join(dir, 'data'));
  await sampleProject(ctx, project);
  ctx.store?.close();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});

afterAll(async () => {
  for (const proc of started) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps every edit shown as saved when the server is killed mid-session', async () => {
  const page = await openFirstPair(await serve());
  const tok = (side: string, i: number) => page.locator(`[data-testid="line-view"] [data-side="${side}"][data-index="${i}"]`);
  for (let i = 0; i < 5; i++) {
    await tok('src', i).click();
    await tok('tgt', i).click();
    await saved(page);
  }
  await page.keyboard.press('p');
  await saved(page);
  const before = await shownLinks(page);
  expect(before).toEqual(['0-0', '1-1', '2-2', '3-3', '4-4']);
  expect(await page.locator('[data-testid="line-view"] path.gold.possible').count()).toBe(1);

  const running = child!;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGKILL');
  await exited;
  await page.close();

  const again = await openFirstPair(await serve());
  await again.locator('[data-testid="line-view"] path.gold').first().waitFor({ state: 'attached' });
  expect(await shownLinks(again)).toEqual(before);
  expect(await again.locator('[data-testid="line-view"] path.gold.possible').count()).toBe(1);
  const store = ProjectStore.open(project);
  expect(editorPair(store, 'noy', 1).gold.length).toBe(5);
  store.close();
});

it('keeps a change made while the server is gone and sends it when the server is back', async () => {
  const token = 'kept-changes-token-0123456789';
  const url = await serve(0, token);
  const port = Number(new URL(url).port);
  const page = await openFirstPair(url);
  const tok = (side: string, i: number) => page.locator(`[data-testid="line-view"] [data-side="${side}"][data-index="${i}"]`);
  const running = child!;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGKILL');
  await exited;
  // Linked while the server is gone: not saved, and the editor says why.
  await tok('src', 6).click();
  await tok('tgt', 6).click();
  await page.getByText('The Mekong server is not answering. Your changes are kept here').waitFor();
  expect(await page.locator('[data-testid="save-state"]').getAttribute('data-state')).toBe('saving');
  await serve(port, token);
  await saved(page);
  const store = ProjectStore.open(project);
  expect(editorPair(store, 'noy', 1).gold.map((l) => `${l.s}-${l.t}`)).toContain('6-6');
  store.close();
  await page.close();
});
