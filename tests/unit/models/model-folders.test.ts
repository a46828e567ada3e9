// Every family's model folder (nn/model-folder.ts): a round trip per family; the folders of the
// layouts before it (nn/legacy-model-folders.ts), built here byte for byte as the old writers
// wrote them, load to the same model; a statistical model aligns to the very same links and
// scores from an old folder and a new one; a damaged folder is one line naming the file.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { alignCorpus } from '../../../src/main/align/engine.ts';
import { loadModel, saveModel } from '../../../src/main/align/saved-model.ts';
import type { SavedModel } from '../../../src/main/align/statistical-model.ts';
import { UserError } from '../../../src/main/errors.ts';
import { loadNeuralModel, saveNeuralModel } from '../../../src/main/models/bilstm/bilstm-folder.ts';
import { trainNeural, type NeuralModel } from '../../../src/main/models/bilstm/bilstm-train.ts';
import { trainCurationModel } from '../../../src/main/models/bisent2vec/curation.ts';
import { sentenceVectors } from '../../../src/main/models/bisent2vec/embed.ts';
import { loadBisent2vec, saveBisent2vec } from '../../../src/main/models/bisent2vec/bisent2vec-folder.ts';
import type { Bisent2vecModel } from '../../../src/main/models/bisent2vec/cbow-train.ts';
import { SIAMESE_DEFAULTS } from '../../../src/shared/aligner-defaults.ts';
import { loadSiameseHead, saveSiameseHead, type SavedHead } from '../../../src/main/models/siamese/siamese-folder.ts';
import { FINETUNE_FILE, poolerTensors, saveHfEncoder } from '../../../src/main/models/transformer/hf-checkpoint.ts';
import { readEncoderConfig } from '../../../src/main/models/transformer/hf-config.ts';
import { LANGUAGE_EMBEDDINGS, LANGUAGE_FILE, readEncoderWeights } from '../../../src/main/models/transformer/hf-weights.ts';
import { readSafetensors, writeSafetensors } from '../../../src/main/nn/safetensors.ts';
import { Tensor } from '../../../src/main/nn/tensor.ts';
import { syntheticCorpus } from './bilstm/synthetic.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { writeTinyBert } from './transformer/tiny-encoders.ts';

const dir = tempDir('mekong-families-');

/** What a loader throws, checked to be one UserError line matching `pattern`. */
function refused(load: () => unknown, pattern: RegExp): void {
  let err: unknown;
  try {
    load();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(UserError);
  expect((err as Error).message).toMatch(pattern);
  expect((err as Error).message).not.toContain('\n');
}

const header = (family: string, version: number) => ({ format: 'mekong-model-folder', family, version });
const configOf = (folder: string) => JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8'));

// ---- the layouts before the one model folder, as their writers wrote them ----

const bytes = (a: Int32Array | Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** mekong-align-model/1: model.json (2-space JSON), vocab.src/.tgt, pairs.i32 interleaved, *.f32. */
function writeStatisticalV1(folder: string, m: SavedModel): void {
  mkdirSync(folder, { recursive: true });
  const meta = { format: 'mekong-align-model/1', method: m.method, lowercase: m.lowercase, fwd: m.fwd.params, rev: m.rev.params };
  writeFileSync(join(folder, 'model.json'), JSON.stringify(meta, null, 2));
  writeFileSync(join(folder, 'vocab.src'), m.srcVocab.join('\n'));
  writeFileSync(join(folder, 'vocab.tgt'), m.tgtVocab.join('\n'));
  const pairs = new Int32Array(2 * m.pairSrc.length);
  m.pairSrc.forEach((s, p) => ((pairs[2 * p] = s), (pairs[2 * p + 1] = m.pairTgt[p])));
  writeFileSync(join(folder, 'pairs.i32'), bytes(pairs));
  for (const d of ['fwd', 'rev'] as const) {
    writeFileSync(join(folder, `${d}.t.f32`), bytes(m[d].lex.t));
    writeFileSync(join(folder, `${d}.null.f32`), bytes(m[d].lex.tNull));
  }
}

/** The JSON the BiLSTM's folders /1 (model.json) and /2 (config.json) held. */
function bilstmMeta(m: NeuralModel, format: string) {
  const { device: _device, ...config } = m.config;
  const side = (v: NeuralModel['vocab']['src']) => ({ words: [...v.ids.keys()], subwords: v.subwords });
  return {
    format,
    ...(format.endsWith('/2') ? { model_type: 'mekong-bilstm' } : {}),
    config,
    src: side(m.vocab.src),
    tgt: side(m.vocab.tgt),
    subwordCount: m.vocab.subwordCount,
    maxSubwords: m.vocab.maxSubwords,
    subwordModel: m.vocab.subwordModel,
    decision: m.decision,
  };
}

/** The model folder writer before this one: model.safetensors with the format as metadata, compact config.json. */
function writeFolderV1(folder: string, config: { format: string }, params: ReadonlyMap<string, Tensor>): void {
  mkdirSync(folder, { recursive: true });
  writeSafetensors(join(folder, 'model.safetensors'), params, { format: config.format });
  writeFileSync(join(folder, 'config.json'), JSON.stringify(config) + '\n');
}

function writeBisent2vecV1(folder: string, m: Bisent2vecModel): void {
  const v = m.index.vocab;
  const d = m.config.dim;
  const meta = {
    format: 'mekong-bisent2vec/1',
    model_type: 'mekong-bisent2vec',
    config: m.config,
    words: v.words,
    bigrams: v.bigrams,
    chars: v.chars,
    charN: v.charN,
    counts: Array.from(v.counts),
    df: Array.from(v.df),
    sentences: v.sentences,
    ...(m.thresholds ? { thresholds: m.thresholds } : {}),
  };
  const params = new Map([
    ['U', new Tensor('float32', m.U, [m.U.length / d, d])],
    ['V', new Tensor('float32', m.V, [m.V.length / d, d])],
  ]);
  writeFolderV1(folder, meta, params);
  if (m.lexicon) writeStatisticalV1(join(folder, 'lexicon'), m.lexicon);
}

function writeSiameseV1(folder: string, s: SavedHead): void {
  const d = s.head.dim;
  const meta = { format: 'mekong-siamese-head/1', model_type: 'mekong-siamese-head', dim: d, encoder: s.encoder, config: s.config };
  writeFolderV1(
    folder,
    meta,
    new Map([
      ['head.weight', new Tensor('float32', s.head.weight, [d, d])],
      ['head.bias', new Tensor('float32', s.head.bias, [d])],
    ]),
  );
}

// ---- statistical ----

const src = ['das haus ist klein', 'das buch ist klein', 'ein buch', 'ein haus', 'das haus ist gross', 'ein buch ist gross'].map((s) =>
  s.split(' '),
);
const tgt = ['the house is small', 'the book is small', 'a book', 'a house', 'the house is big', 'a book is big'].map((s) => s.split(' '));
const newSrc = [
  ['ein', 'buch', 'ist', 'klein'],
  ['das', 'haus'],
  ['ein', 'zzz', 'ist', 'gross'],
];
const newTgt = [
  ['a', 'book', 'is', 'small'],
  ['the', 'house'],
  ['a', 'qqq', 'is', 'big'],
];

test.each(['ibm1', 'ibm2', 'hmm', 'agree'])('statistical %s: old and new folders give the same links and scores', async (method) => {
  const { model } = await alignCorpus(src, tgt, { method, lowercase: true });
  const [now, old] = [join(dir, `stat-${method}`), join(dir, `stat-${method}-v1`)];
  saveModel(now, model);
  writeStatisticalV1(old, model);
  expect(readdirSync(now).sort()).toEqual(['config.json', 'model.safetensors', 'vocab.src', 'vocab.tgt']);
  expect(configOf(now)).toMatchObject({ ...header('statistical', 2), method, lowercase: true });
  const stored = readSafetensors(join(now, 'model.safetensors')).tensors;
  expect(stored.get('pairs.src')!.type).toBe('int32');
  if (method === 'hmm') {
    expect(stored.get('fwd.params.jumps')!.type).toBe('float64');
    expect(configOf(now).fwd.jumps).toBeUndefined();
  }
  const [a, b] = [loadModel(now), loadModel(old)];
  for (const m of [a, b]) {
    expect(m.fwd.params).toEqual(model.fwd.params);
    expect(m.rev.lex.tNull).toEqual(model.rev.lex.tNull);
    expect(m.pairTgt).toEqual(model.pairTgt);
    expect(m.srcVocab).toEqual(model.srcVocab);
  }
  const [linksNew, linksOld, linksTrained] = await Promise.all(
    [a, b, model].map(async (m) => (await alignCorpus(newSrc, newTgt, { model: m })).links),
  );
  expect(linksNew.flat().length).toBeGreaterThan(0);
  expect(linksNew.flat().every((l) => typeof l.score === 'number')).toBe(true);
  expect(linksNew).toEqual(linksOld);
  expect(linksNew).toEqual(linksTrained);
  expect(JSON.stringify(linksNew)).toEqual(JSON.stringify(linksOld));
});

test('statistical: a damaged folder is one line naming the file', async () => {
  const { model } = await alignCorpus(src, tgt, { method: 'hmm' });
  const folder = join(dir, 'stat-damaged');
  saveModel(folder, model);
  const weights = join(folder, 'model.safetensors');
  const stored = readSafetensors(weights).tensors;
  const rewrite = (change: (m: Map<string, Tensor>) => void) => {
    const m = new Map(stored);
    change(m);
    writeSafetensors(weights, m);
  };
  rewrite((m) => m.delete('rev.t'));
  refused(() => loadModel(folder), /stat-damaged\/model\.safetensors: missing tensor rev\.t$/);
  rewrite((m) => m.set('fwd.null', new Tensor('float32', new Float32Array(3), [3])));
  refused(() => loadModel(folder), /model\.safetensors: tensor fwd\.null has shape \[3\] but the folder's config implies \[\d+\]/);
  saveModel(folder, model);
  truncateSync(weights, 200);
  refused(() => loadModel(folder), /stat-damaged\/model\.safetensors: .*truncated\?/);
  const old = join(dir, 'stat-damaged-v1');
  writeStatisticalV1(old, model);
  rmSync(join(old, 'rev.null.f32'));
  refused(() => loadModel(old), /stat-damaged-v1\/rev\.null\.f32: missing$/);
  refused(() => loadModel(dir), /config\.json: missing$/);
});

// ---- bilstm ----

test('bilstm: round trip, and the layouts /1 (model.json) and /2 (vocabularies in config.json) load', async () => {
  const c = syntheticCorpus(24, 8);
  const model = await trainNeural({ src: c.src, tgt: c.tgt }, { epochs: 1, dim: 16, batchSize: 8, device: 'cpu' });
  const folder = join(dir, 'bilstm');
  saveNeuralModel(folder, model);
  expect(readdirSync(folder).sort()).toEqual(['config.json', 'model.safetensors', 'vocab.json']);
  const config = configOf(folder);
  expect(config).toMatchObject({ ...header('bilstm', 3), config: { dim: 16 } });
  expect(config.config.device).toBeUndefined();
  expect(config.src).toBeUndefined();
  const same = (back: NeuralModel) => {
    expect(back.vocab).toEqual(model.vocab);
    expect(back.dims).toEqual(model.dims);
    expect(back.decision).toEqual(model.decision);
    const { device: _d, ...cfg } = model.config;
    expect(back.config).toEqual(cfg);
    for (const [name, t] of model.params) expect(back.params.get(name)!.data).toEqual(t.data);
  };
  same(loadNeuralModel(folder));

  const v2 = join(dir, 'bilstm-v2');
  writeFolderV1(v2, bilstmMeta(model, 'mekong-neural-aligner/2'), model.params);
  same(loadNeuralModel(v2));
  const v1 = join(dir, 'bilstm-v1');
  mkdirSync(v1);
  writeFileSync(join(v1, 'model.json'), JSON.stringify(bilstmMeta(model, 'mekong-neural-aligner/1')));
  copyFileSync(join(v2, 'model.safetensors'), join(v1, 'model.safetensors'));
  same(loadNeuralModel(v1));
  // An old folder saved over takes today's layout.
  saveNeuralModel(v1, model);
  expect(readdirSync(v1).sort()).toEqual(['config.json', 'model.safetensors', 'vocab.json']);

  // Damage: a vocabulary that does not fit the tables, a truncated file, another family.
  const vocab = JSON.parse(readFileSync(join(folder, 'vocab.json'), 'utf8'));
  vocab.src.words.pop();
  vocab.src.subwords.pop();
  writeFileSync(join(folder, 'vocab.json'), JSON.stringify(vocab));
  refused(
    () => loadNeuralModel(folder),
    /bilstm\/model\.safetensors: tensor emb\.s\.table has shape \[\d+, 16\] but the folder's config implies/,
  );
  saveNeuralModel(folder, model);
  truncateSync(join(folder, 'model.safetensors'), 1000);
  refused(() => loadNeuralModel(folder), /bilstm\/model\.safetensors: .*truncated\?/);
  refused(() => loadNeuralModel(join(dir, 'stat-hmm')), /stat-hmm\/config\.json: a statistical model, not bilstm$/);
  refused(() => loadNeuralModel(join(dir, 'stat-hmm-v1')), /stat-hmm-v1\/model\.json: a statistical model, not bilstm$/);
}, 60_000);

// ---- bisent2vec ----

const s2 = [
  ['a', 'small', 'dog'],
  ['a', 'big', 'cat'],
  ['the', 'small', 'cat'],
  ['the', 'big', 'dog'],
];
const t2 = [
  ['un', 'petit', 'chien'],
  ['un', 'gros', 'chat'],
  ['le', 'petit', 'chat'],
  ['le', 'gros', 'chien'],
];

test('bisent2vec: round trip with its lexicon folder, and the layout /1 with a lexicon of the statistical /1', async () => {
  const { model } = await trainCurationModel(s2, t2, { minCount: 1, dim: 6, epochs: 3 });
  model.thresholds = { mining: 1.07, flagging: 0.8 };
  const folder = join(dir, 'bisent2vec');
  saveBisent2vec(folder, model);
  expect(readdirSync(folder).sort()).toEqual(['config.json', 'lexicon', 'model.safetensors', 'vocab.json']);
  expect(configOf(folder)).toMatchObject({ ...header('bisent2vec', 2), thresholds: model.thresholds });
  expect(configOf(join(folder, 'lexicon'))).toMatchObject(header('statistical', 2));
  const old = join(dir, 'bisent2vec-v1');
  writeBisent2vecV1(old, model);
  for (const back of [loadBisent2vec(folder), loadBisent2vec(old)]) {
    expect(back.config).toEqual(model.config);
    expect(back.thresholds).toEqual(model.thresholds);
    expect(back.index.vocab).toEqual(model.index.vocab);
    expect(back.U).toEqual(model.U);
    expect(back.V).toEqual(model.V);
    expect(back.lexicon!.fwd.lex.t).toEqual(model.lexicon!.fwd.lex.t);
    expect(sentenceVectors(back, 1, t2)).toEqual(sentenceVectors(model, 1, t2));
  }
  const w = join(folder, 'model.safetensors');
  writeSafetensors(w, new Map([['U', new Tensor('float32', model.U, [model.U.length / 6, 6])]]));
  refused(() => loadBisent2vec(folder), /bisent2vec\/model\.safetensors: missing tensor V$/);
  refused(() => loadBisent2vec(join(dir, 'bilstm-v2')), /bilstm-v2\/config\.json: a bilstm model, not bisent2vec$/);
});

// ---- siamese head ----

test('siamese head: round trip, the layout /1, a wrong shape refused', () => {
  const d = 4;
  const saved: SavedHead = {
    head: { dim: d, weight: Float32Array.from({ length: d * d }, (_, i) => i / 7), bias: Float32Array.from([1, 2, 3, 4]) },
    encoder: 'bisent2vec:/models/b2v',
    config: SIAMESE_DEFAULTS,
  };
  const folder = join(dir, 'siamese');
  saveSiameseHead(folder, saved);
  expect(configOf(folder)).toEqual({ ...header('siamese-head', 2), dim: d, encoder: saved.encoder, config: SIAMESE_DEFAULTS });
  const old = join(dir, 'siamese-v1');
  writeSiameseV1(old, saved);
  expect(loadSiameseHead(folder)).toEqual(saved);
  expect(loadSiameseHead(old)).toEqual(saved);
  writeFileSync(join(folder, 'config.json'), JSON.stringify({ ...configOf(folder), dim: 5 }));
  refused(
    () => loadSiameseHead(folder),
    /siamese\/model\.safetensors: tensor head\.weight has shape \[4, 4\] but the folder's config implies \[5, 5\]/,
  );
});

// ---- pretrained encoders: the Hugging Face folder ----

test('encoder: the Hugging Face folder round trips with its extras; a damaged one is refused naming the file', () => {
  const source = join(dir, 'tiny-bert');
  writeTinyBert(source, { hidden: 8, heads: 2, intermediate: 16, layers: 1 });
  const c = readEncoderConfig(source);
  const params = readEncoderWeights(source, c);
  params.set(
    LANGUAGE_EMBEDDINGS,
    new Tensor(
      'float32',
      Float32Array.from({ length: 16 }, (_, i) => i),
      [2, 8],
    ),
  );
  const out = join(dir, 'tuned-bert');
  saveHfEncoder(out, source, c, params, poolerTensors(c, new Map()), { epochs: 1 });
  expect(readdirSync(out).sort()).toEqual(['config.json', LANGUAGE_FILE, FINETUNE_FILE, 'model.safetensors', 'tokenizer.json'].sort());
  expect(configOf(out)).toEqual({ ...configOf(source), architectures: ['BertModel'] });
  expect(readFileSync(join(out, 'tokenizer.json'))).toEqual(readFileSync(join(source, 'tokenizer.json')));
  expect(readSafetensors(join(out, 'model.safetensors')).metadata).toEqual({ format: 'pt' });
  const back = readEncoderWeights(out, readEncoderConfig(out));
  expect([...back.keys()].sort()).toEqual([...params.keys()].sort());
  for (const [name, t] of params) expect(back.get(name)!.data).toEqual(t.data);
  // saving again replaces the folder whole (no language embeddings this time)
  params.delete(LANGUAGE_EMBEDDINGS);
  saveHfEncoder(out, source, c, params, poolerTensors(c, new Map()), { epochs: 2 });
  expect(readdirSync(out)).not.toContain(LANGUAGE_FILE);
  expect(readdirSync(dir).filter((n) => n.startsWith('tuned-bert'))).toEqual(['tuned-bert']);
  truncateSync(join(out, 'model.safetensors'), 500);
  refused(() => readEncoderWeights(out, c), /tuned-bert\/model\.safetensors: .*truncated\?/);
  rmSync(join(out, 'model.safetensors'));
  refused(() => readEncoderWeights(out, c), /tuned-bert\/model\.safetensors: missing/);
});
