// The Models page of a fine-tuned encoder in browser mode: the sample project with gold on a
// few pairs (three of them in the dev split) and a tiny BERT written by the test as its
// encoder, fine-tuned for two epochs (real ONNX training in the encoder worker); the run's
// evaluation chart draws the checkpoints' dev retrieval P@1 beside their AER, and the
// checkpoint table lists it, each figure the one the run recorded.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { listModels, metricsOf } from '../../src/main/store/training-runs.ts';
import { startHarness, type Harness } from './harness.ts';
import { call, DEV_PAIRS, openFinetuneProject } from './finetune-fixture.ts';

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await openFinetuneProject(h);
});

afterAll(async () => {
  await h?.close();
});

it("draws a fine-tuned encoder's dev retrieval P@1 beside its AER curve and lists it per checkpoint", async () => {
  await call(h, 'models.train', { method: 'encoder-finetune', epochs: 2 });
  await page.getByRole('tab', { name: 'Models' }).click();
  const done = page.locator('[data-testid="run-view"][data-state="done"]');
  await done.waitFor({ timeout: 420_000 });
  const run = listModels(h.ctx.store!, () => null).flatMap((m) => m.runs)[0];
  expect(run.evalPairs).toBe(DEV_PAIRS.length);
  expect(run.checkpoints.map((c) => c.epoch)).toEqual([1, 2]);
  for (const c of run.checkpoints) {
    expect(c.aer).not.toBeNull();
    expect(c.retrieval).toBeGreaterThanOrEqual(0);
    expect(c.retrieval).toBeLessThanOrEqual(1);
  }
  const recorded = metricsOf(h.ctx.store!, run.id);
  expect(recorded.filter((p) => p.name === 'retrieval_p1_src_tgt')).toHaveLength(2);
  expect(recorded.filter((p) => p.name === 'retrieval_p1_tgt_src')).toHaveLength(2);

  const evalChart = done.getByTestId('curve-chart').nth(1);
  await expect.poll(async () => Number(await evalChart.locator('path[data-series="retrieval_p1"]').getAttribute('data-points'))).toBe(2);
  await expect.poll(async () => Number(await evalChart.locator('path[data-series="aer"]').getAttribute('data-points'))).toBe(2);
  await evalChart.getByText('retrieval P@1').first().waitFor();
  // the keyboard readout at the first checkpoint names both figures
  await evalChart.locator('svg').focus();
  await page.keyboard.press('Home');
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const first = run.checkpoints[0];
  await evalChart
    .getByTestId('chart-readout')
    .filter({ hasText: `AER ${pct(first.aer!)}` })
    .filter({ hasText: `retrieval P@1 ${pct(first.retrieval!)}` })
    .waitFor();
  const cells = await done.getByTestId('checkpoint-retrieval').allTextContents();
  expect(cells.map((c) => c.trim())).toEqual(run.checkpoints.map((c) => pct(c.retrieval!)));
  await h.screenshot('60-models-finetune-retrieval');
  expect(h.pageErrors).toEqual([]);
}, 600_000);
