// The Train… dialog before any run, end to end in browser mode on the Lao–Thai sample: fields
// named in plain words before their symbols, a quick first run offered and chosen, and a time
// estimate from a few training steps timed on the project's pairs on this machine — for the
// quick run, and again for the full run when the quick one is unticked.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from './harness.ts';
import { sampleProject } from './editor-fixture.ts';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await sampleProject(h.ctx, join(h.dir, 'train.mekong'));
  await page.reload();
});

afterAll(async () => {
  await h?.close();
});

/** Seconds of a duration as formatDuration writes it ("45 s", "12 min", "2 h 10 min"). */
function seconds(text: string): number {
  const m = /about (?:(\d+) h )?(\d+) (s|min)\b/.exec(text);
  if (!m) throw new Error(`no duration in "${text}"`);
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * (m[3] === 'min' ? 60 : 1);
}

describe('Train… before the first run', () => {
  it('offers a quick first run and times it on a few steps of the project', async () => {
    await page.getByRole('tab', { name: 'Models' }).click();
    await page.getByRole('button', { name: 'Train…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Train a model' });
    const method = dialog.getByLabel('Training method');
    expect(await method.locator('option:checked').textContent()).toBe('Neural aligner trained on your corrections (bilstm-ctl)');
    await dialog.getByLabel('Weight of the contrastive loss (λ)').waitFor();
    await dialog.getByLabel('Temperature (τ)').waitFor();
    expect(await dialog.getByLabel(/Quick first run/).isChecked()).toBe(true);
    expect(await dialog.getByLabel('Epochs', { exact: true }).inputValue()).toBe('5');
    await dialog.getByText('Advanced').click();
    expect(await dialog.getByLabel('Self-training epochs').inputValue()).toBe('0');

    const estimate = dialog.getByTestId('run-estimate');
    await expect
      .poll(() => estimate.textContent(), { timeout: 300_000, interval: 1000 })
      .toMatch(/timed on 8 steps of this project's pairs/);
    const quick = seconds((await estimate.textContent())!);
    expect(quick).toBeGreaterThan(0);
    await dialog.getByLabel(/Quick first run/).scrollIntoViewIfNeeded();
    await h.screenshot('80-train-dialog-estimate');

    // The full run: the proposed epochs for 265 pairs and self-training, timed at the same pace.
    await dialog.getByLabel(/Quick first run/).uncheck();
    expect(await dialog.getByLabel('Epochs', { exact: true }).inputValue()).toBe('75');
    await expect.poll(async () => seconds((await estimate.textContent())!)).toBeGreaterThan(quick * 5);
    await h.screenshot('81-train-dialog-full-estimate');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(h.pageErrors).toEqual([]);
  }, 420_000);
});
