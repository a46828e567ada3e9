// `mekong siamese` (cli/siamese.ts) end to end on real files in a temporary folder: the head
// trained on a Bi-Sent2Vec model's vectors of Multi30k en–fr pairs, tested on other pairs (P@1
// and P@5 both ways: the raw encoder's cosine, normalised, after the head; the raw line the
// same as `eval retrieval` without a head and a hand computation), saved as a model folder
// that loads back with the head's test retrieval; hard, random and average negatives; a tiny BERT folder with a held-out share, its
// vectors at seed 004's layer by default or at --pooling/--layer, recorded in the head and
// read back by `eval retrieval --head`; a project's pairs, its dev pairs the test pairs and
// its excluded pairs left out, the head recorded in the project; bad arguments as one-line errors.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { trainBisent2vec } from '../../../../src/main/models/bisent2vec/parallel-train.ts';
import { saveBisent2vec } from '../../../../src/main/models/bisent2vec/bisent2vec-folder.ts';
import { loadSiameseHead } from '../../../../src/main/models/siamese/siamese-folder.ts';
import { openSentenceEncoder, seed004Layer } from '../../../../src/main/models/siamese/sentence-encoders.ts';
import { unitRows } from '../../../../src/main/eval/csls.ts';
import { retrievalAccuracy } from '../../../../src/main/eval/retrieval.ts';
import { samplePairs, writeTinyBert } from '../transformer/tiny-encoders.ts';
import { m30kPairs } from './bench-pairs.ts';
import { project } from '../../review/fixture.ts';
import { dbOf } from '../../../../src/main/store/connection.ts';
import { ProjectStore } from '../../../../src/main/store/project-store.ts';
import { recordedHeads } from '../../../../src/main/store/siamese-heads.ts';

const dir = tempDir('mekong-siamese-cli-');
const pairs = m30kPairs(500);
const file = (name: string, lines: string[][]) => {
  const p = join(dir, name);
  writeFileSync(p, lines.map((s) => s.join(' ') + '\n').join(''));
  return p;
};
const A = file('train.en', pairs.src.slice(0, 400)),
  B = file('train.fr', pairs.tgt.slice(0, 400)),
  C = file('test.en', pairs.src.slice(400)),
  D = file('test.fr', pairs.tgt.slice(400));

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const P = /src→tgt P@1 ([\d.]+) P@5 ([\d.]+), tgt→src P@1 ([\d.]+) P@5 ([\d.]+)/;

test('siamese on a Bi-Sent2Vec model: test P@1/P@5 both ways before and after; the head saved', async () => {
  const { model } = await trainBisent2vec(
    pairs.src.slice(0, 400),
    pairs.tgt.slice(0, 400),
    { minCount: 1, dim: 32, epochs: 20 },
    { threads: 1 },
  );
  const m = join(dir, 'bisent2vec');
  saveBisent2vec(m, model);
  const out = join(dir, 'head');
  const spec = `bisent2vec:${m}`;
  const r = mekong('siamese', '--encoder', spec, '--src', A, '--tgt', B, '--test-src', C, '--test-tgt', D, '--out', out, '--epochs', '3');
  expect(r.code, r.err).toBe(0);
  console.log(`mekong siamese --encoder bisent2vec:M (400 training, 100 test pairs, 3 epochs):\n${r.out}`);
  expect(r.out).toMatch(/^400 training pairs, 100 test pairs, 3 epochs, hard negatives, loss [\d.]+ → [\d.]+$/m);
  const [raw, before, after] = ['raw encoder (cosine)', 'normalised (unit/ctr/unit)', 'after the head'].map((what) => {
    const line = r.out.split('\n').find((l) => l.startsWith(what))!;
    return P.exec(line)!.slice(1).map(Number);
  });
  for (const v of [...raw, ...before, ...after]) expect(v >= 0 && v <= 1).toBe(true);
  expect(before[0]).toBeGreaterThan(0.2); // 100 test pairs: chance 0.01
  expect(after[0]).toBeGreaterThan(0.2);
  expect(before[1]).toBeGreaterThanOrEqual(before[0]);
  // the raw line: cosine on the encoder's vectors as they are, by hand and as `eval retrieval` without a head prints it
  const enc = openSentenceEncoder('bisent2vec', m);
  const [tx, ty] = [await enc.embed(0, pairs.src.slice(400)), await enc.embed(1, pairs.tgt.slice(400))];
  const byHand = await retrievalAccuracy(unitRows(tx, 32), unitRows(ty, 32), 32);
  expect(raw).toEqual([byHand.forward[1], byHand.forward[5], byHand.backward[1], byHand.backward[5]].map((v) => Number(v.toFixed(3))));
  const plain = mekong('eval', 'retrieval', '--src', C, '--tgt', D, '--encoder', spec, '--json');
  expect(plain.code, plain.err).toBe(0);
  const json = JSON.parse(plain.out) as { p1: { src_tgt: number; tgt_src: number } };
  expect([raw[0], raw[2]]).toEqual([json.p1.src_tgt, json.p1.tgt_src].map((v) => Number(v.toFixed(3))));
  expect(raw).not.toEqual(before); // normalising moves these vectors: the two baselines differ
  const saved = loadSiameseHead(out);
  expect(saved.encoder).toBe(spec);
  expect(saved.vectors).toBeUndefined(); // Bi-Sent2Vec has no pooling or layer
  expect(saved.head.dim).toBe(32);
  expect(saved.config).toMatchObject({ epochs: 3, negatives: 'hard' });
  // the head's test retrieval recorded in the folder: the "after the head" line's figures
  const rec = saved.retrieval!;
  expect([rec.p1.srcTgt, rec.p5.srcTgt, rec.p1.tgtSrc, rec.p5.tgtSrc].map((v) => Number(v.toFixed(3)))).toEqual(after);
  expect(rec.pairs).toBe(100);

  // the same seed, other negatives: other heads
  for (const negatives of ['random', 'average']) {
    const out = join(dir, `head-${negatives}`);
    const r = mekong(
      'siamese',
      '--encoder',
      spec,
      '--src',
      A,
      '--tgt',
      B,
      '--test-src',
      C,
      '--test-tgt',
      D,
      '--out',
      out,
      '--epochs',
      '3',
      '--negatives',
      negatives,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`^400 training pairs, 100 test pairs, 3 epochs, ${negatives} negatives`, 'm'));
    expect(loadSiameseHead(out).config.negatives).toBe(negatives);
    expect(Array.from(loadSiameseHead(out).head.weight)).not.toEqual(Array.from(saved.head.weight));
  }
}, 240_000);

test('siamese on a Hugging Face folder, with a share of the pairs held out', () => {
  const bert = join(dir, 'bert');
  writeTinyBert(bert);
  const s = samplePairs(40);
  const r = mekong(
    'siamese',
    '--encoder',
    `hf:${bert}`,
    '--src',
    file('lo.txt', s.src),
    '--tgt',
    file('th.txt', s.tgt),
    '--held-out',
    '0.25',
    '--out',
    join(dir, 'bert-head'),
    '--epochs',
    '2',
    '--lr',
    '0.001',
  );
  expect(r.code, r.err).toBe(0);
  expect(r.out).toMatch(/^30 training pairs, 10 test pairs, 2 epochs, hard negatives, mean of layer 1,/m);
  expect(r.out).toMatch(new RegExp(`after the head {12}: ${P.source}`));
  const saved = loadSiameseHead(join(dir, 'bert-head'));
  expect(saved.head.dim).toBe(32);
  expect(saved.encoder).toBe(`hf:${bert}`);
  expect(saved.vectors).toEqual({ pooling: 'mean', layer: 1 }); // the tiny BERT's 2 layers: 7/12 of them
}, 120_000);

test("seed 004's layer: 7 of 12, the same share of other depths", () => {
  expect([12, 24, 6, 2, 1].map(seed004Layer)).toEqual([7, 14, 4, 1, 1]);
});

test('siamese --pooling/--layer on a Hugging Face folder: recorded in the head, which eval retrieval --head reads back', () => {
  const bert = join(dir, 'bert-layer');
  writeTinyBert(bert);
  const s = samplePairs(40);
  const [src, tgt] = [file('lo-layer.txt', s.src), file('th-layer.txt', s.tgt)];
  const run = (out: string, ...flags: string[]) =>
    mekong(
      'siamese',
      '--encoder',
      `hf:${bert}`,
      '--src',
      src,
      '--tgt',
      tgt,
      '--held-out',
      '0.25',
      '--out',
      join(dir, out),
      '--epochs',
      '2',
      '--lr',
      '0.01',
      ...flags,
    );
  const cls = run('cls-head', '--pooling', 'cls', '--layer', '2');
  expect(cls.code, cls.err).toBe(0);
  expect(cls.out).toMatch(/, cls of layer 2,/);
  expect(loadSiameseHead(join(dir, 'cls-head')).vectors).toEqual({ pooling: 'cls', layer: 2 });
  const mean0 = run('mean0-head', '--layer', '0');
  expect(mean0.code, mean0.err).toBe(0);
  expect(loadSiameseHead(join(dir, 'mean0-head')).vectors).toEqual({ pooling: 'mean', layer: 0 });
  // eval retrieval --head: the head's own pooling and layer by default, the same figures as when they are spelled out
  const evalWith = (...flags: string[]) => {
    const r = mekong('eval', 'retrieval', '--src', src, '--tgt', tgt, '--head', join(dir, 'cls-head'), '--json', ...flags);
    expect(r.code, r.err).toBe(0);
    return { out: JSON.parse(r.out) as unknown, err: r.err };
  };
  expect(evalWith().out).toEqual(evalWith('--pooling', 'cls', '--layer', '2').out);
  expect(evalWith('--layer', '1').err).toMatch(/trained on --layer 2, applied here to --layer 1/);
  const bad = run('bad-head', '--layer', 'x');
  expect(bad.code).toBe(1);
  expect(bad.err.trim()).toMatch(/--layer must be a layer number/);
}, 180_000);

test("siamese on a project's pairs: its dev pairs test the head, excluded pairs are left out", () => {
  const bert = join(dir, 'bert-project');
  writeTinyBert(bert);
  const s = samplePairs(40);
  const { store, ids } = project(
    dir,
    s.src.map((x, k) => [x.join(' '), s.tgt[k].join(' ')]),
  );
  dbOf(store)
    .prepare(`UPDATE pairs SET split = 'dev' WHERE id IN (${ids.slice(0, 8).join(',')})`)
    .run();
  dbOf(store).prepare(`UPDATE pairs SET excluded = 1 WHERE id = ?`).run(ids[39]);
  const file = store.path;
  store.close();
  const r = mekong('siamese', '--encoder', `hf:${bert}`, '--project', file, '--out', join(dir, 'project-head'), '--epochs', '1');
  expect(r.code, r.err).toBe(0);
  expect(r.out).toMatch(/^31 training pairs, 8 test pairs, 1 epochs/m);
  expect(r.out).toMatch(new RegExp(`raw encoder \\(cosine\\) {6}: ${P.source}`));
  // the head is recorded in the project, for its Models page and the Mine and Score dialogs
  const reopened = ProjectStore.open(file);
  expect(recordedHeads(reopened)).toEqual([join(dir, 'project-head')]);
  reopened.close();
}, 120_000);

test('siamese: bad arguments are one-line errors', { timeout: 240_000 }, () => {
  const out = join(dir, 'x');
  for (const [args, message] of [
    [
      ['--encoder', 'word2vec:m', '--src', A, '--tgt', B, '--out', out],
      /--encoder must be bisent2vec:DIR, bilstm:DIR, hf:DIR; got "word2vec:m"/,
    ],
    [['--encoder', 'bilstm:' + join(dir, 'none'), '--src', A, '--tgt', B, '--out', out], /none\/config\.json: missing/],
    [['--encoder', 'bilstm:' + join(dir, 'none'), '--src', A, '--out', out], /give the training pairs as --src and --tgt, or as --project/],
    [
      ['--encoder', `bisent2vec:${join(dir, 'bisent2vec')}`, '--src', A, '--tgt', B, '--out', out, '--test-src', C],
      /--test-src and --test-tgt go together/,
    ],
    [
      ['--encoder', `bisent2vec:${join(dir, 'bisent2vec')}`, '--src', A, '--tgt', B, '--out', out, '--held-out', '2'],
      /--held-out must be a share between 0 and 1/,
    ],
    [
      ['--encoder', `bisent2vec:${join(dir, 'bisent2vec')}`, '--src', A, '--tgt', B, '--out', out, '--negatives', 'worst'],
      /--negatives.*worst.*random, hard, average/,
    ],
    [
      ['--encoder', `bisent2vec:${join(dir, 'bisent2vec')}`, '--src', A, '--tgt', B, '--out', out, '--layer', '3'],
      /--pooling and --layer choose a Hugging Face encoder's sentence vector/,
    ],
    [['--src', A, '--tgt', B, '--out', out], /give the frozen encoder: --encoder bisent2vec:DIR/],
  ] as const) {
    const r = mekong('siamese', ...args);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  }
});
