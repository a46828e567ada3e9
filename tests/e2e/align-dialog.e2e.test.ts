// The Align dialog in browser mode on the Lao–Thai sample. Each symmetrisation is listed once
// (its short name beside it, a hint below). Dictionaries: a file that cannot be read is named
// in the error, the bundled Lao–English dictionary is composed with an English–Thai file
// through English into a Lao–Thai prior (Align waits, disabled, while it attaches), the
// project is aligned with it, the result names it, and the dictionary is removed again. Encoders: a folder without a model is refused, a tiny
// BERT folder (built by the test) brings the encoder methods, which align the project at a
// chosen hidden layer (SimAlign's with the unit compared, null-align and distortion, shown
// for the SimAlign methods only and recorded on the model); the Train… form then offers encoder-finetune on that folder, with
// the seeds' objectives in place of the BiLSTM's fields (and the encoder's own links
// recomputed during training on request), and the run fine-tunes it into
// a Hugging Face checkpoint folder. Every check reads the store.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { listDictionaries } from '../../src/main/store/dictionaries.ts';
import { dbOf } from '../../src/main/store/connection.ts';
import { ENCODER_DEFAULTS } from '../../src/shared/aligner-defaults.ts';
import { listModels } from '../../src/main/store/training-runs.ts';
import { checkpointDir, runDir } from '../../src/main/train/run-files.ts';
import { LANGUAGE_FILE } from '../../src/main/models/transformer/hf-weights.ts';
import { startHarness, type Harness } from './harness.ts';
import { sampleProject } from './editor-fixture.ts';
import { writeTinyBert } from '../unit/models/transformer/tiny-encoders.ts';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness('noy');
  page = h.page;
  await sampleProject(h.ctx, join(h.dir, 'dicts.mekong'));
  await page.reload();
});

afterAll(async () => {
  await h?.close();
});

describe('Align dialog', () => {
  it('attaches a composed Lao–Thai dictionary, aligns with it and removes it', async () => {
    const enTh = join(h.dir, 'en-th.tsv');
    writeFileSync(
      enTh,
      ['water\tน้ำ', 'rice\tข้าว', 'eat\tกิน', 'house\tบ้าน', 'embassy\tสถานทูต', 'ambassador\tเอกอัครราชทูต'].join('\n') + '\n',
    );
    await page.getByRole('button', { name: 'Align…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Align the project' });
    const section = dialog.getByRole('region', { name: 'Dictionaries' });
    await section.getByText('None attached').waitFor();

    // One name per symmetrisation: grow-diag-final-and with its short name, not gdfa again.
    const syms = await dialog.getByLabel('Symmetrisation').locator('option').allTextContents();
    expect(syms).toEqual(['grow-diag-final-and (gdfa)', 'grow-diag-final (gdf)', 'grow-diag', 'intersect', 'union', 'fwd', 'rev', 'post']);
    await expect(dialog.getByLabel('Symmetrisation').inputValue()).resolves.toBe('grow-diag-final-and');
    await dialog.getByTestId('sym-hint').filter({ hasText: 'both unaligned' }).waitFor();

    // A file that is not there: the error names it, nothing is attached.
    await section.getByLabel('Dictionary', { exact: true }).selectOption({ label: 'A file on this computer…' });
    await section.getByLabel('Dictionary file').fill(join(h.dir, 'missing.tsv'));
    await section.getByLabel('Dictionary languages').fill('lo-th');
    await section.getByRole('button', { name: 'Attach' }).click();
    await expect.poll(() => section.getByRole('alert').textContent()).toContain('missing.tsv');
    expect(listDictionaries(h.ctx.store!)).toEqual([]);

    // The bundled Lao–English dictionary through English with an English–Thai file.
    await section.getByLabel('Dismiss error').click();
    await section.getByLabel('Dictionary', { exact: true }).selectOption({ label: 'Lao–English (MOPT, MIT)' });
    await section.getByLabel('Compose with a second dictionary through a pivot language').check();
    await section.getByLabel('Second dictionary', { exact: true }).selectOption({ label: 'A file on this computer…' });
    await section.getByLabel('Second dictionary file').fill(enTh);
    await section.getByLabel('Second dictionary languages').fill('en-th');
    await section.getByLabel('Pivot language', { exact: true }).fill('en');
    // The attach call is held until the dialog has been seen waiting for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/dictionaries.attach', async (route) => {
      await held;
      await route.continue();
    });
    await section.getByRole('button', { name: 'Attach' }).click();
    const waiting = dialog.getByRole('button', { name: 'Waiting for the dictionary…' });
    await waiting.waitFor();
    expect(await waiting.isDisabled()).toBe(true);
    await h.screenshot('21-align-waiting-for-dictionary');
    release();
    await section.getByTestId('attached-dictionaries').getByText('lo-en:bundled via en').waitFor();
    await page.unroute('**/api/dictionaries.attach');
    expect(await dialog.getByRole('button', { name: 'Align', exact: true }).isDisabled()).toBe(false);
    const [attached] = listDictionaries(h.ctx.store!);
    expect(attached.source).toEqual({ dicts: ['lo-en:bundled', `en-th:${enTh}`], via: 'en' });
    expect(attached.entries).toBeGreaterThan(5);
    await h.screenshot('22-align-dictionaries');

    await dialog.getByLabel('Method').selectOption('ibm2');
    await dialog.getByRole('button', { name: 'Align', exact: true }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 240_000 });
    expect(h.ctx.store!.info().alignments.find((a) => a.origin === 'model')!.links).toBeGreaterThan(1000);
    // The result says which dictionaries the run used.
    const result = await dialog.getByTestId('job-progress').locator('.message').textContent();
    expect(result).toMatch(/^aligned 265 pairs with ibm2 \+ grow-diag-final-and, dictionary "[^"]+": \d+ links$/);
    expect(result).toContain(`dictionary ${JSON.stringify(attached.name)}`);
    await h.screenshot('22b-align-done-with-dictionary');

    await section.getByRole('button', { name: `Remove ${attached.name}` }).click();
    await section.getByText('None attached').waitFor();
    expect(listDictionaries(h.ctx.store!)).toEqual([]);
  }, 360_000);

  it('offers the encoder methods once the project names an encoder folder, and aligns with one', async () => {
    const empty = join(h.dir, 'not-a-model');
    mkdirSync(empty);
    const bert = join(h.dir, 'tiny-bert');
    writeTinyBert(bert, { layers: 3 });
    const dialog = page.getByRole('dialog', { name: 'Align the project' });
    const method = dialog.getByLabel('Method');
    expect(await method.locator('option').allTextContents()).not.toContain('simalign-argmax');
    await dialog.getByLabel('Encoder folder').fill(empty);
    await dialog.getByRole('button', { name: 'Use folder' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('config.json');
    expect(h.ctx.store!.info().encoderDir).toBeNull();
    await dialog.getByLabel('Dismiss error').click();
    await dialog.getByLabel('Encoder folder').fill(bert);
    await dialog.getByRole('button', { name: 'Use folder' }).click();
    await expect.poll(() => method.locator('option').allTextContents()).toContain('simalign-argmax');
    expect(h.ctx.store!.info().encoderDir).toBe(bert);
    // SimAlign's settings are awesome-align's to ignore: shown for the SimAlign methods only, at their defaults
    await method.selectOption('awesome');
    expect(await dialog.getByLabel('Distortion').count()).toBe(0);
    await method.selectOption('simalign-argmax');
    await expect(dialog.getByLabel('Compare').inputValue()).resolves.toBe(ENCODER_DEFAULTS.tokenType);
    await expect(dialog.getByLabel('Null-align share').inputValue()).resolves.toBe(String(ENCODER_DEFAULTS.nullAlign));
    await expect(dialog.getByLabel('Distortion').inputValue()).resolves.toBe(String(ENCODER_DEFAULTS.distortion));
    await dialog.getByLabel('Compare').selectOption('bpe');
    await dialog.getByLabel('Null-align share').fill('0.9');
    await dialog.getByLabel('Distortion').fill('0.5');
    await dialog.getByText('(distortion): 0.50').waitFor();
    await dialog.getByLabel('Hidden layer').fill('2');
    expect(await dialog.getByLabel('Symmetrisation').count()).toBe(0);
    await h.screenshot('23-align-encoder');
    await dialog.getByRole('button', { name: /^Align( again)?$/ }).click();
    await dialog.locator('[data-testid="job-progress"][data-phase="done"]').waitFor({ timeout: 90_000 });
    const made = h.ctx.store!.info().alignments.find((a) => a.name.startsWith('simalign-argmax (layer 2)'));
    expect(made?.links).toBeGreaterThan(265);
    const model = dbOf(h.ctx.store!).prepare(`SELECT config FROM models WHERE kind = 'encoder'`).get() as { config: string };
    expect(JSON.parse(model.config)).toMatchObject({
      method: 'simalign-argmax',
      layer: 2,
      tokenType: 'bpe',
      nullAlign: 0.9,
      distortion: 0.5,
    });
  });

  it('fine-tunes the project encoder from the Train… form', async () => {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Align the project' }).waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Models' }).click();
    await page.getByRole('button', { name: 'Train…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Train a model' });
    await dialog.getByLabel('Training method').selectOption('encoder-finetune');
    // The BiLSTM's fields give way to the seeds' objectives; epochs and rate are fine-tuning's.
    expect(await dialog.getByLabel('Base').count()).toBe(0);
    await expect(dialog.getByLabel('Epochs', { exact: true }).inputValue()).resolves.toBe('1');
    expect(await dialog.getByLabel('Objective TR').isChecked()).toBe(true);
    expect(await dialog.getByLabel('Objective RTL').isChecked()).toBe(false);
    expect(await dialog.getByLabel('Weight of RTL').isDisabled()).toBe(true);
    // awesome-align's self-training objective is offered, off by default, at weight 1
    expect(await dialog.getByLabel('Objective SO').isChecked()).toBe(false);
    await expect(dialog.getByLabel('Weight of SO').inputValue()).resolves.toBe('1');
    for (const o of ['TR', 'AWP', 'WTR']) await dialog.getByLabel(`Objective ${o}`).uncheck();
    await dialog.getByTestId('field-error').filter({ hasText: 'choose an objective' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Start training' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Objective TR').check();
    await dialog.getByLabel('Objective WTR').check();
    await dialog.getByText('Advanced').click();
    await expect(dialog.getByLabel('Learning rate').inputValue()).resolves.toBe('0.00005');
    await dialog.getByLabel('Pairs per step').fill('32');
    await dialog.getByLabel(/language embeddings/).check();
    await expect(dialog.getByLabel("Encoder's own links").inputValue()).resolves.toBe('fixed');
    await dialog.getByLabel("Encoder's own links").selectOption('recomputed');
    await dialog.getByLabel("Encoder's own links").scrollIntoViewIfNeeded();
    await h.screenshot('26b-models-finetune-own-links');
    await dialog.getByLabel('Epochs', { exact: true }).fill('2');
    await h.screenshot('26-models-finetune-form');
    await dialog.getByRole('button', { name: 'Start training' }).click();
    await dialog.waitFor({ state: 'detached' });
    const view = page.locator('[data-testid="run-view"][data-state="done"]');
    await view.waitFor({ timeout: 180_000 });
    await view.getByText(/TR 0\.8 \+ WTR 0\.1 · 32 pairs a step · language embeddings/).waitFor();
    expect(await view.getByRole('button', { name: 'Continue training…' }).count()).toBe(0);
    await h.screenshot('27-models-finetune-run');
    const [r] = listModels(h.ctx.store!, () => null).flatMap((m) => m.runs);
    expect(r.config).toMatchObject({
      method: 'encoder-finetune',
      epochs: 2,
      lr: 5e-5,
      finetune: { objectives: ['tr', 'wtr'], batch: 32, languageEmbeddings: true, soLabels: 'recomputed' },
    });
    expect(r.checkpoints.map((c) => c.epoch)).toEqual([1, 2]);
    expect(r.device?.used).toBe('cpu');
    const folder = checkpointDir(runDir(h.ctx.store!.path, r.id), 2);
    for (const f of ['config.json', 'model.safetensors', 'tokenizer.json', LANGUAGE_FILE]) expect(existsSync(join(folder, f))).toBe(true);

    // Re-aligning with the checkpoint: awesome-align's extraction, no symmetrisation to choose.
    expect(await view.getByLabel('Re-align symmetrisation').count()).toBe(0);
    const before = h.ctx.store!.info().alignments.length;
    await view.getByRole('button', { name: 'Re-align project' }).click();
    await view.getByRole('button', { name: 'Open review queue' }).waitFor({ timeout: 120_000 });
    const made = h.ctx.store!.info().alignments;
    expect(made.length).toBe(before + 1);
    expect(made.at(-1)!.links).toBeGreaterThan(265);
  });
});
