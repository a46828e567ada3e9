// Self-training's pseudo-labels (models/bilstm/train-and-self-train.ts) from a real tiny model: pairs with
// links keep them, skipped (evaluation) pairs get none, the others the model's own links
// scoring at least the threshold — fewer as the threshold rises.
import { afterAll, expect, test } from 'vitest';
import type { JobProgress } from '../../../../src/main/jobs/job-context.ts';
import { Embedder } from '../../../../src/main/models/bilstm/embedder.ts';
import { DEFAULT_CONFIG, trainNeural } from '../../../../src/main/models/bilstm/bilstm-train.ts';
import { pseudoLabelled } from '../../../../src/main/models/bilstm/train-and-self-train.ts';
import { syntheticCorpus } from './synthetic.ts';

const c = syntheticCorpus(24, 12, 11);
const embedder = new Embedder();
afterAll(() => embedder.release());

test('gold pairs keep their links, skipped pairs get none, the rest the model links at or above the threshold', async () => {
  const gold = c.gold.map((g, k) => (k < 4 ? g : undefined));
  const data = { src: c.src, tgt: c.tgt, gold };
  const model = await trainNeural(data, { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 3 });
  const phases = new Set<string>();
  const messages: string[] = [];
  const ctx = { progress: (p: JobProgress) => void messages.push(p.message!), signal: new AbortController().signal };
  const label = (threshold: number) => pseudoLabelled(embedder, model, data, { threshold, skip: [20, 21, 22, 23] }, ctx);
  const all = (await label(0)).gold!;
  const confident = (await label(0.6)).gold!;
  for (let k = 0; k < 4; k++) expect(all[k]).toEqual(c.gold[k]);
  for (let k = 20; k < 24; k++) expect(all[k] ?? []).toEqual([]);
  for (let k = 4; k < 20; k++) {
    expect(all[k]!.length).toBeGreaterThan(0);
    for (const l of all[k]!) expect(l.t).toBeLessThan(c.tgt[k].length);
    for (const l of confident[k] ?? []) {
      expect(all[k]).toContainEqual(l);
      expect((l as { score?: number }).score).toBeGreaterThanOrEqual(0.6);
    }
  }
  const count = (ls: typeof all) => ls.reduce((n, l) => n + (l?.length ?? 0), 0);
  expect(count(confident)).toBeLessThan(count(all));
  // each step's count follows its name: "self-training: EM 3/5"
  for (const m of messages) phases.add(m.replace(/ \d+\/\d+$/, ''));
  expect(phases).toEqual(new Set(['self-training: embedding the pairs', 'self-training: EM', 'self-training: linking']));
  expect(messages).toContain('self-training: embedding the pairs 20/20');
}, 120_000);
