// Saved models: trained parameters are saved, loaded and reused to align new pairs
// without retraining, one pair well under 50 ms.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { alignCorpus } from '../../../src/main/align/engine.ts';
import { loadModel, saveModel } from '../../../src/main/align/saved-model.ts';

const src = ['das haus ist klein', 'das buch ist klein', 'ein buch', 'ein haus', 'das haus ist gross', 'ein buch ist gross'].map((s) =>
  s.split(' '),
);
const tgt = ['the house is small', 'the book is small', 'a book', 'a house', 'the house is big', 'a book is big'].map((s) => s.split(' '));

test.each(['ibm1', 'ibm2', 'hmm', 'agree'])('%s: a saved model aligns a new pair as trained, fast', async (method) => {
  const trained = await alignCorpus(src, tgt, { method, lowercase: true });
  const dir = mkdtempSync(join(tmpdir(), 'mekong-model-'));
  saveModel(dir, trained.model);
  const model = loadModel(dir);
  expect(model.method).toBe(method);
  expect(model.lowercase).toBe(true);
  // a new pair, never seen as such, in another case (the model lowercases)
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const { links } = await alignCorpus([['Ein', 'Haus', 'ist', 'klein']], [['a', 'house', 'is', 'small']], { model });
    times.push(performance.now() - t0);
    expect(links[0].map((l) => `${l.s}-${l.t}`)).toEqual(['0-0', '1-1', '2-2', '3-3']);
  }
  expect(Math.min(...times)).toBeLessThan(50); // best of 5: the first call also compiles
});

test('unknown words still get a (diagonal) alignment from a saved model', async () => {
  const trained = await alignCorpus(src, tgt, { method: 'ibm2' });
  const { links } = await alignCorpus([['das', 'zzz']], [['the', 'qqq']], { model: trained.model });
  expect(links[0].map((l) => `${l.s}-${l.t}`)).toContain('0-0');
});

test('loading a directory that is not a model is a clear user error', () => {
  expect(() => loadModel(tmpdir())).toThrow(/config\.json: missing$/);
});
