// A Bi-Sent2Vec model saved in the model folder format and loaded back (models/bisent2vec/
// bisent2vec-folder.ts) gives the same vectors, vocabulary, thresholds and IBM1 tables (mining scores
// equal); a model saved before the tables existed scores by the cosine alone; other folders
// are refused.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { UserError } from '../../../../src/main/errors.ts';
import { sentenceVectors } from '../../../../src/main/models/bisent2vec/embed.ts';
import { loadBisent2vec, saveBisent2vec } from '../../../../src/main/models/bisent2vec/bisent2vec-folder.ts';
import { mineSentences, trainCurationModel } from '../../../../src/main/models/bisent2vec/curation.ts';
import { trainBisent2vec } from '../../../../src/main/models/bisent2vec/parallel-train.ts';

const dir = tempDir();
const src = [
  ['a', 'small', 'dog'],
  ['a', 'big', 'cat'],
  ['the', 'small', 'cat'],
  ['the', 'big', 'dog'],
];
const tgt = [
  ['un', 'petit', 'chien'],
  ['un', 'gros', 'chat'],
  ['le', 'petit', 'chat'],
  ['le', 'gros', 'chien'],
];

test('save and load round trip', async () => {
  const { model } = await trainBisent2vec(src, tgt, { minCount: 1, dim: 6, epochs: 3, tfidf: true });
  model.thresholds = { mining: 1.07, flagging: 0.8 };
  const folder = join(dir, 'model');
  saveBisent2vec(folder, model);
  const back = loadBisent2vec(folder);
  expect(back.config).toEqual(model.config);
  expect(back.thresholds).toEqual(model.thresholds);
  expect(back.index.vocab.words).toEqual(model.index.vocab.words);
  expect(back.index.vocab.bigrams).toEqual(model.index.vocab.bigrams);
  expect(back.U).toEqual(model.U);
  expect(back.V).toEqual(model.V);
  expect(sentenceVectors(back, 1, tgt)).toEqual(sentenceVectors(model, 1, tgt));
});

test('the IBM1 tables are saved with the model; a model saved without the weight loads with weight 0', async () => {
  const { model } = await trainCurationModel(src, tgt, { minCount: 1, dim: 6, epochs: 3 });
  expect(model.lexicon).toBeDefined();
  const folder = join(dir, 'with-lexicon');
  saveBisent2vec(folder, model);
  const back = loadBisent2vec(folder);
  expect(back.lexicon!.fwd.lex.t).toEqual(model.lexicon!.fwd.lex.t);
  expect(await mineSentences(back, src, tgt, -Infinity)).toEqual(await mineSentences(model, src, tgt, -Infinity));
  const meta = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8'));
  delete meta.config.lexicalWeight;
  writeFileSync(join(folder, 'config.json'), JSON.stringify(meta));
  expect(loadBisent2vec(folder).config.lexicalWeight).toBe(0);
});

test('a folder of another model type or with mismatched tensors is a one-line error', async () => {
  const { model } = await trainBisent2vec(src, tgt, { minCount: 1, dim: 6, epochs: 1 });
  const folder = join(dir, 'other');
  saveBisent2vec(folder, model);
  writeFileSync(join(folder, 'config.json'), JSON.stringify({ format: 'mekong-model-folder', family: 'bilstm', version: 3 }));
  expect(() => loadBisent2vec(folder)).toThrow(UserError);
  expect(() => loadBisent2vec(folder)).toThrow(/config\.json: a bilstm model, not bisent2vec$/);
  const small = join(dir, 'small');
  saveBisent2vec(small, model);
  const bigger = (
    await trainBisent2vec([...src, ['one', 'more', 'dog']], [...tgt, ['un', 'autre', 'chien']], {
      minCount: 1,
      dim: 6,
      epochs: 1,
    })
  ).model;
  saveBisent2vec(join(dir, 'bigger'), bigger);
  copyFileSync(join(dir, 'bigger', 'model.safetensors'), join(small, 'model.safetensors'));
  expect(() => loadBisent2vec(small)).toThrow(/small\/model\.safetensors: tensor U has shape \[\d+, 6\] but the folder's config implies/);
});
