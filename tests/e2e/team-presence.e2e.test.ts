// Presence on a team server in Chromium, two browser contexts logged in as an annotator and an
// adjudicator of one project: the pair one has open in the editor shows "open by NAME" to the
// other, in the Pairs list row and in the editor's toolbar, and the badge goes when they leave.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { AppContext } from '../../src/main/api/app-context.ts';
import { JobRegistry } from '../../src/main/jobs/job-registry.ts';
import { TeamFile } from '../../src/main/store/team-file.ts';
import { hashPassword } from '../../src/main/team/passwords.ts';
import { startServer, type ServerHandle } from '../../src/main/server.ts';
import { sampleProject } from './editor-fixture.ts';

const CHROMIUM = process.env.MEKONG_CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
const PASSWORD = 'presence-e2e-password-0123';

let dir: string;
let ctx: AppContext;
let server: ServerHandle;
let browser: Browser;
let pairId = 0;
const pageErrors: string[] = [];

async function logIn(name: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${name}: ${e.message}`));
  await page.goto(server.url);
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Log in' }).click();
  await page.getByTestId('project-name').waitFor({ timeout: 60_000 });
  return page;
}

/** The Pairs list narrowed to pair `id` (every pair, not only an assignment), and its row. */
async function findPair(page: Page, id: number) {
  await page.getByRole('tab', { name: 'Pairs' }).click();
  const mine = page.getByTestId('assignment-filter').first().locator('input');
  if ((await mine.count()) && (await mine.isChecked())) await mine.uncheck();
  await page.getByLabel('Search source and target text').fill(`#${id}`);
  await expect.poll(() => page.getByTestId('match-count').textContent()).toBe('1 pair match');
  return page.locator(`[data-testid="pair-list"] [role="row"][data-pair-id="${id}"]`);
}

async function openPair(page: Page, id: number): Promise<void> {
  await (await findPair(page, id)).click();
  await page.keyboard.press('Enter');
  await page
    .getByTestId('editor-pair')
    .filter({ hasText: `#${id}` })
    .waitFor();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mekong-presence-e2e-'));
  ctx = { mode: 'browser', version: 'e2e', store: null, annotator: 'nobody', jobs: new JobRegistry(), dataDir: join(dir, 'data') };
  const path = join(dir, 'team.mekong');
  await sampleProject(ctx, path);
  const file = TeamFile.open(path, { create: true });
  const hash = await hashPassword(PASSWORD);
  file.addAccount('ann', 'annotator', hash, Date.now());
  file.addAccount('adi', 'adjudicator', hash, Date.now());
  file.close();
  server = await startServer(ctx, { port: 0, team: { projectPath: path } });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  pairId = ctx.store!.listPairs({}, { offset: 0 }, 3).pairs[2].id;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  ctx?.store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('a pair open in one account shows "open by NAME" to the other, in the list and in the editor', async () => {
  const ann = await logIn('ann');
  const adi = await logIn('adi');
  await openPair(ann, pairId);

  const row = await findPair(adi, pairId);
  await expect.poll(() => row.getByTestId('presence').textContent()).toBe('open by ann');
  await adi.screenshot({ path: join(SCREENSHOTS, 'team-presence-list.png') });

  await openPair(adi, pairId);
  await expect.poll(() => adi.getByTestId('presence').textContent()).toBe('open by ann');
  // the annotator sees the adjudicator on her pair (blind mode hides other annotators only)
  await expect.poll(() => ann.getByTestId('presence').textContent()).toBe('open by adi');
  await ann.screenshot({ path: join(SCREENSHOTS, 'team-presence-editor.png') });

  // ann goes back to the list: the badge leaves adi's editor
  await ann.getByRole('button', { name: '← Pairs' }).click();
  await expect.poll(() => adi.getByTestId('presence').count()).toBe(0);
  expect(pageErrors).toEqual([]);
}, 180_000);
