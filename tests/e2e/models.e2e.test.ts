// The Models page end to end in browser mode, on the bundled sample project with gold on
// a few pairs (some in the dev split, so the run has an evaluation curve): train a tiny
// model from the Train… form, watch the loss and evaluation curves fill in, read a value
// by hovering, re-align the project with a checkpoint and open the review queue on the new
// alignment; cancel a second run; delete a model. Every wait is on UI state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dispatch } from '../../src/main/api/dispatch.ts';
import { listModels, metricsOf } from '../../src/main/store/training-runs.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
let page: Page;
const DEV_PAIRS = [1, 2, 3];
const TRAIN_GOLD_PAIRS = [4, 5];

async function call(channel: string, input: unknown): Promise<void> {
  const r = await dispatch(h.ctx, channel, input);
  if (!r.ok) throw new Error(`${channel}: ${r.error.error}`);
}

/** Gold on the first few diagonal token pairs of `pairId` (the test needs gold, not good gold). */
async function putGold(pairId: number): Promise<void> {
  const pair = h.ctx.store!.getPair(pairId);
  const n = Math.min(6, pair.srcTokens.length, pair.tgtTokens.length);
  const links = Array.from({ length: n }, (_, i) => ({ s: i, t: i, kind: 'sure' as const, score: null }));
  await call('editor.setGold', { pairId, links, untranslated: [] });
}

const run = (id?: number) => page.locator(id === undefined ? '[data-testid="run-view"]' : `[data-testid="run-view"][data-run-id="${id}"]`);
const runs = () => listModels(h.ctx.store!.db, () => null).flatMap((m) => m.runs);

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await page.getByRole('button', { name: 'Open sample project' }).click();
  await page.getByTestId('project-name').waitFor();
  for (const id of [...DEV_PAIRS, ...TRAIN_GOLD_PAIRS]) await putGold(id);
  for (const id of DEV_PAIRS) await call('pairs.update', { id, split: 'dev' });
});

afterAll(async () => {
  await h?.close();
});

describe('models page', () => {
  it('validates the Train… form inline and starts a tiny run', async () => {
    await page.getByRole('tab', { name: 'Models' }).click();
    await page.getByTestId('models').getByText('No model yet.').waitFor();
    await page.getByRole('button', { name: 'Train…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Train a model' });
    await expect(dialog.getByLabel('Base').inputValue()).resolves.toBe('0.8');
    await dialog.getByLabel('Epochs', { exact: true }).fill('0');
    await dialog.getByTestId('field-error').filter({ hasText: 'at least 1' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Start training' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Epochs', { exact: true }).fill('2');
    await dialog.getByText('Advanced').click();
    await dialog.getByLabel('Dimension').fill('32');
    await dialog.getByLabel('Model name').fill('tiny e2e model');
    await h.screenshot('21-models-train-form');
    await dialog.getByRole('button', { name: 'Start training' }).click();
    await dialog.waitFor({ state: 'detached' });
    await run().waitFor();
    const [r] = runs();
    expect(r.config).toMatchObject({ method: 'bilstm-ctl', epochs: 2, dim: 32, weights: { base: 0.8, awp: 0.1, wtr: 0.1 } });
  });

  it('draws the loss and evaluation curves live and marks the best checkpoint', async () => {
    const view = run();
    // While it trains: live progress and the loss curve filling in.
    if ((await view.getAttribute('data-state')) === 'running') {
      await view.getByTestId('job-progress').waitFor();
    }
    await view.locator('path[data-series="loss"]:not([data-points="0"])').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="run-view"][data-state="done"]').waitFor({ timeout: 90_000 });
    const r = runs()[0];
    expect(r.state).toBe('done');
    expect(r.evalPairs).toBe(DEV_PAIRS.length);
    await expect.poll(() => view.getByTestId('checkpoint-row').count()).toBe(2);
    const lossPoints = Number(await view.locator('path[data-series="loss"]').getAttribute('data-points'));
    expect(lossPoints).toBe(metricsOf(h.ctx.store!.db, r.id).filter((p) => p.name === 'loss').length);
    expect(lossPoints).toBeGreaterThan(2);
    await expect.poll(async () => Number(await view.locator('path[data-series="aer"]').getAttribute('data-points'))).toBe(2);
    expect(await view.locator('.series.dots.epoch_loss circle').count()).toBe(2);
    const best = r.checkpoints.reduce((a, b) => (b.aer! < a.aer! ? b : a));
    await view.locator(`[data-testid="checkpoint-row"][data-epoch="${best.epoch}"].best`).waitFor();
    expect(await view.getByTestId('no-eval-note').count()).toBe(0);

    const chart = view.getByTestId('curve-chart').first();
    const box = (await chart.locator('svg').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await chart.getByTestId('chart-readout').filter({ hasText: /step \d+.*smoothed \d/ }).waitFor();
    await view.getByTestId('curve-chart').nth(1).locator('svg').focus();
    await page.keyboard.press('End');
    await view.getByTestId('curve-chart').nth(1).getByTestId('chart-readout').filter({ hasText: `step ${r.checkpoints.at(-1)!.step}` }).waitFor();
    await h.screenshot('22-models-run-done');
  });

  it('re-aligns the project with a checkpoint and opens the review queue on it', async () => {
    const view = run();
    await view.getByLabel('Use the checkpoint of epoch 1').check();
    await view.getByRole('button', { name: 'Re-align project' }).click();
    await view.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 60_000 });
    await view.getByRole('button', { name: 'Open review queue' }).click();
    const alignmentId = runs()[0].alignmentIds[0];
    expect(alignmentId).toBeDefined();
    const queue = page.getByTestId('queue');
    await queue.getByTestId('queue-item').first().waitFor();
    await expect(queue.getByLabel('Queue model').inputValue()).resolves.toBe(String(alignmentId));
    await h.screenshot('23-models-queue');
  });

  it('cancels a running training', async () => {
    await page.getByRole('tab', { name: 'Models' }).click();
    await page.getByRole('button', { name: 'Train…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Train a model' });
    await dialog.getByLabel('Epochs', { exact: true }).fill('200');
    await dialog.getByLabel('Model name').fill('to cancel');
    await dialog.getByRole('button', { name: 'Start training' }).click();
    const view = page.locator('[data-testid="run-view"][data-state="running"]');
    await view.getByTestId('curve-chart').first().getByText('Waiting for the first training steps…').waitFor();
    await view.locator('[data-testid="job-progress"][data-phase="running"]').waitFor();
    await h.screenshot('24-models-running');
    await view.getByRole('button', { name: 'Cancel training' }).click();
    await page.locator('[data-testid="run-view"][data-state="cancelled"]').waitFor({ timeout: 30_000 });
    expect(runs().find((r) => r.config.name === 'to cancel')?.state).toBe('cancelled');
  });

  it('deletes a model after asking', async () => {
    const model = page.getByTestId('model').filter({ hasText: 'to cancel' });
    await model.getByRole('button', { name: 'Delete model to cancel' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete model' });
    await confirm.getByText('cannot be undone').waitFor();
    await confirm.getByRole('button', { name: 'Delete model' }).click();
    await model.waitFor({ state: 'detached' });
    expect(runs().map((r) => r.config.name)).toEqual(['tiny e2e model']);
    expect(h.pageErrors).toEqual([]);
  });
});
