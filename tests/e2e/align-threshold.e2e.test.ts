// The Align dialog's posterior decoding on the Lao–Thai sample: choosing `post` shows a
// threshold slider; before any run decoded that way the dialog says the count is not known
// yet; after one, it gives the number of links each threshold will give, read from that run's
// counts by score, and the next run at another threshold stores exactly that many. Every
// check reads the store.
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

test('the posterior threshold shows the links it will give, and the run gives them', async () => {
  await page.getByRole('button', { name: 'Align…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Align the project' });
  await dialog.getByLabel('Method').selectOption('ibm1');
  await dialog.getByLabel('Symmetrisation').selectOption('post');
  const slider = dialog.getByLabel('Posterior threshold');
  const estimate = dialog.getByTestId('link-estimate');
  await estimate.getByText('Align once with this decoding').waitFor();

  await slider.fill('0.4');
  await dialog.getByRole('button', { name: 'Align', exact: true }).click();
  await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 240_000 });
  expect(await dialog.getByTestId('job-progress').locator('.message').textContent()).toMatch(/ibm1 \+ post ≥ 0\.4/);
  const first = h.ctx.store!.info().alignments.at(-1)!;
  const curve = first.linkCurve!;
  await expect.poll(() => estimate.textContent()).toContain(`≈ ${first.links.toLocaleString('en')} links`);

  await slider.fill('0.2');
  const expected = linksAt(curve, 0.2)!;
  expect(expected).toBeGreaterThan(first.links);
  await expect
    .poll(() => estimate.textContent())
    .toContain(`≈ ${expected.toLocaleString('en')} links (${(expected / 265).toFixed(1)} per pair)`);
  await h.screenshot('21c-align-threshold');
  await dialog.getByRole('button', { name: 'Align again' }).click();
  await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 240_000 });
  expect(h.ctx.store!.info().alignments.at(-1)!.links).toBe(expected);
}, 600_000);
