// The Train… dialog's fine-tuning settings in browser mode: on the Lao–Thai sample with a
// tiny BERT written by the test as its encoder (gold on a few pairs, three of them dev), the
// linguist sets the papers' settings in plain words — longest sentence in subword tokens, a
// step count (which then decides the epochs), batches per step, the best checkpoint by
// sentence retrieval — and starts the run (real ONNX training in the encoder worker). The
// run's stored configuration holds them, its settings line says them, the run made the steps
// asked for, and the checkpoint marked best is the one of highest retrieval P@1.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { listModels } from '../../src/main/store/training-runs.ts';
import { startHarness, type Harness } from './harness.ts';
import { openFinetuneProject } from './finetune-fixture.ts';

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await openFinetuneProject(h);
  await page.reload();
  await page.getByTestId('project-name').waitFor();
});

afterAll(async () => {
  await h?.close();
});

it("sets a fine-tuning's length cap, step count, batches per step and best-by-retrieval; the run stores and follows them", async () => {
  await page.getByRole('tab', { name: 'Models' }).click();
  await page.getByRole('button', { name: 'Train…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Train a model' });
  await dialog.getByLabel('Training method').selectOption('encoder-finetune');
  await dialog.getByText('Advanced').click();
  await dialog.getByLabel('Longest sentence (subword tokens)').fill('16');
  await dialog.getByLabel('Batches per step (gradient accumulation)').fill('2');
  // 16 pairs a step × 2 = 32 pairs a step: the effective batch, said in words
  await dialog.getByText('each step learns from 32 pairs (effective batch)').waitFor();
  const epochs = dialog.getByLabel('Epochs', { exact: true });
  expect(await epochs.isDisabled()).toBe(false);
  // 265 pairs at 32 a step are 9 steps an epoch: 12 steps make a second epoch of 3
  await dialog.getByLabel('Stop after (steps)').fill('12');
  expect(await epochs.isDisabled()).toBe(true);
  expect(await epochs.inputValue()).toBe('2');
  await dialog.getByText('as many as 12 steps need, at 9 steps an epoch for 265 pairs').waitFor();
  await dialog.getByLabel('Best checkpoint by').selectOption('retrieval');
  await dialog.getByLabel('Best checkpoint by').scrollIntoViewIfNeeded();
  await h.screenshot('82-train-dialog-finetune-settings');
  await dialog.getByRole('button', { name: 'Start training' }).click();

  const done = page.locator('[data-testid="run-view"][data-state="done"]');
  await done.waitFor({ timeout: 420_000 });
  const run = listModels(h.ctx.store!, () => null).flatMap((m) => m.runs)[0];
  expect(run.config.method).toBe('encoder-finetune');
  expect(run.config.epochs).toBe(2);
  expect(run.config.finetune).toMatchObject({ maxLength: 16, maxSteps: 12, accumulate: 2, batch: 16, selectBy: 'retrieval' });
  expect(run.checkpoints.map((c) => [c.epoch, c.step])).toEqual([
    [1, 9],
    [2, 12],
  ]);
  // the run's settings line says them
  await done.getByText(/16 pairs a step × 2 batches · sentences cut to 16 subword tokens · 12 steps · best by retrieval P@1/).waitFor();
  const [first, second] = run.checkpoints;
  expect(run.bestEpoch).toBe(second.retrieval! > first.retrieval! ? 2 : 1);
  const best = done.getByTestId('best-checkpoint');
  expect(await best.getAttribute('title')).toBe('highest retrieval P@1');
  expect(await done.locator(`[data-testid="checkpoint-row"][data-epoch="${run.bestEpoch}"]`).getByTestId('best-checkpoint').count()).toBe(
    1,
  );
  await best.scrollIntoViewIfNeeded();
  await h.screenshot('83-models-finetune-best-by-retrieval');
  expect(h.pageErrors).toEqual([]);
}, 600_000);
