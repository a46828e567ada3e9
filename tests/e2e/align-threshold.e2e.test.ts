// The Align dialog's posterior decoding on the Lao–Thai sample: choosing `post` shows a
// threshold slider; before any run of the method the dialog says the count is not known yet;
// after one, whatever its decoding (here grow-diag-final-and), it gives the number of links
// each threshold will give, read from that run's counts of cells by mean posterior, and a
// `post` run at that threshold stores exactly that many; another method's run does not
// answer for this one. Every check reads the store.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { linksAt } from '../../src/shared/link-count-curve.ts';
import { sampleProject } from './editor-fixture.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await sampleProject(h.ctx, join(h.dir, 'threshold.mekong'));
  await page.reload();
});

afterAll(async () => {
  await h?.close();
});

test('the posterior threshold shows the links it will give after any run of the method, and the run gives them', async () => {
  await page.getByRole('button', { name: 'Align…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Align the project' });
  await dialog.getByLabel('Method').selectOption('ibm1');
  await dialog.getByLabel('Symmetrisation').selectOption('post');
  const slider = dialog.getByLabel('Posterior threshold');
  const estimate = dialog.getByTestId('link-estimate');
  await estimate.getByText('Align once with ibm1 (any decoding)').waitFor();

  // a first run decoded by grow-diag-final-and already counts what post would give
  await dialog.getByLabel('Symmetrisation').selectOption('grow-diag-final-and');
  await dialog.getByRole('button', { name: 'Align', exact: true }).click();
  await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 240_000 });
  expect(await dialog.getByTestId('job-progress').locator('.message').textContent()).toMatch(/ibm1 \+ grow-diag-final-and/);
  const curve = h.ctx.store!.info().alignments.at(-1)!.linkCurve!;
  expect(curve).toMatchObject({ method: 'ibm1', pairs: 265 });
  await dialog.getByLabel('Symmetrisation').selectOption('post');
  await slider.fill('0.4');
  const at04 = linksAt(curve, 0.4)!;
  await expect.poll(() => estimate.textContent()).toContain(`≈ ${at04.toLocaleString('en')} links (${(at04 / 265).toFixed(1)} per pair)`);
  await h.screenshot('21c-align-threshold');
  await dialog.getByRole('button', { name: 'Align again' }).click();
  await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 240_000 });
  expect(await dialog.getByTestId('job-progress').locator('.message').textContent()).toMatch(/ibm1 \+ post ≥ 0\.4/);
  expect(h.ctx.store!.info().alignments.at(-1)!.links).toBe(at04);

  await slider.fill('0.2');
  const at02 = linksAt(curve, 0.2)!;
  expect(at02).toBeGreaterThan(at04);
  await expect.poll(() => estimate.textContent()).toContain(`≈ ${at02.toLocaleString('en')} links`);
  // ibm1's counts do not answer for agree
  await dialog.getByLabel('Method').selectOption('agree');
  await dialog.getByLabel('Symmetrisation').selectOption('post');
  await estimate.getByText('Align once with agree (any decoding)').waitFor();
}, 600_000);
