// The project the fine-tuning e2e tests start from: the Lao–Thai sample opened in the page,
// gold on a few pairs marked Done (three of them in the dev split, two training), and a tiny
// BERT written by the test as the project's encoder.
import { join } from 'node:path';
import { dispatch } from '../../src/main/api/dispatch.ts';
import { writeTinyBert } from '../unit/models/transformer/tiny-encoders.ts';
import type { Harness } from './harness.ts';

export const DEV_PAIRS = [1, 2, 3];
export const TRAIN_GOLD_PAIRS = [4, 5];

/** Calls an API channel as the page would, throwing its error. */
export async function call(h: Harness, channel: string, input: unknown): Promise<unknown> {
  const r = await dispatch(h.ctx, channel, input);
  if (!r.ok) throw new Error(`${channel}: ${r.error.error}`);
  return r.value;
}

/** Opens the sample in the page and gives it the gold and the encoder above. */
export async function openFinetuneProject(h: Harness): Promise<void> {
  await h.page.getByRole('button', { name: 'Open sample project' }).click();
  await h.page.getByTestId('project-name').waitFor();
  for (const pairId of [...DEV_PAIRS, ...TRAIN_GOLD_PAIRS]) {
    const pair = h.ctx.store!.getPair(pairId);
    const n = Math.min(6, pair.srcTokens.length, pair.tgtTokens.length);
    const links = Array.from({ length: n }, (_, i) => ({ s: i, t: i, kind: 'sure' as const, score: null }));
    await call(h, 'editor.setGold', { pairId, links, untranslated: [] });
    await call(h, 'pairs.update', { id: pairId, status: 'done' });
  }
  for (const id of DEV_PAIRS) await call(h, 'pairs.update', { id, split: 'dev' });
  const encoder = join(h.dir, 'tiny-bert');
  writeTinyBert(encoder);
  await call(h, 'project.setEncoder', { dir: encoder });
}
