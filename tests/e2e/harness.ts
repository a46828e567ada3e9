// The e2e harness: a browser-mode server started in-process on a free port with a fresh
// AppContext (temp data folder), and a headless Debian Chromium page opened on its
// tokenised URL. Screenshots go to tests/e2e/screenshots/ (gitignored) for a human look.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type { AppContext } from '../../src/main/api/app-context.ts';
import { JobRegistry } from '../../src/main/jobs/job-registry.ts';
import { startServer, type ServerHandle } from '../../src/main/server.ts';

const CHROMIUM = process.env.MEKONG_CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

export interface Harness {
  ctx: AppContext;
  server: ServerHandle;
  browser: Browser;
  page: Page;
  /** A scratch folder for project files and test inputs, removed by close(). */
  dir: string;
  /** Problems the page reported (console errors, uncaught exceptions). */
  pageErrors: string[];
  screenshot(name: string): Promise<string>;
  /**
   * Writes `text` to `name` in the scratch folder and opens the Import dialog on it as an upload
   * in `format`; returns the dialog, its Import button not yet clicked.
   */
  openUploadImport(name: string, text: string, format: string): Promise<Locator>;
  close(): Promise<void>;
}

export async function startHarness(annotator = 'e2e-linguist'): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'mekong-e2e-'));
  const ctx: AppContext = {
    mode: 'browser',
    version: 'e2e',
    store: null,
    annotator,
    jobs: new JobRegistry(),
    dataDir: join(dir, 'data'),
  };
  const server = await startServer(ctx, { port: 0 });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const pageErrors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text().slice(0, 300)));
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(server.url);
  mkdirSync(SCREENSHOTS, { recursive: true });

  return {
    ctx,
    server,
    browser,
    page,
    dir,
    pageErrors,
    async screenshot(name) {
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
    async openUploadImport(name, text, format) {
      const file = join(dir, name);
      writeFileSync(file, text);
      await page.getByRole('button', { name: 'Import…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import a corpus' });
      await dialog.getByLabel('Format').selectOption(format);
      await dialog.getByLabel('Upload from this computer').first().check();
      await dialog.getByLabel('Corpus file: file to upload').setInputFiles(file);
      return dialog;
    },
    async close() {
      await browser.close();
      await server.close();
      ctx.store?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
