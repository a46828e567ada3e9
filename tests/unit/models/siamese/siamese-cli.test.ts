// `mekong siamese` (cli/siamese.ts) end to end on real files in a temporary folder: the head
// trained on a Bi-Sent2Vec model's vectors of Multi30k en–fr pairs, tested on other pairs (P@1
// and P@5 both ways, before and after), saved as a model folder that loads back; a tiny BERT
// folder with a held-out share; a project's pairs, its dev pairs the test pairs and its
// excluded pairs left out; bad arguments as one-line errors.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { trainBisent2vec } from '../../../../src/main/models/bisent2vec/parallel-train.ts';
import { saveBisent2vec } from '../../../../src/main/models/bisent2vec/bisent2vec-folder.ts';
import { loadSiameseHead } from '../../../../src/main/models/siamese/siamese-folder.ts';
import { samplePairs, writeTinyBert } from '../transformer/tiny-encoders.ts';
import { m30kPairs } from './bench-pairs.ts';
import { project } from '../../review/fixture.ts';
import { dbOf } from '../../../../src/main/store/connection.ts';

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
  expect(r.out).toMatch(/^400 training pairs, 100 test pairs, 3 epochs, loss [\d.]+ → [\d.]+$/m);
  const [before, after] = ['before the head', 'after the head'].map((what) => {
    const line = r.out.split('\n').find((l) => l.startsWith(what))!;
    return P.exec(line)!.slice(1).map(Number);
  });
  for (const v of [...before, ...after]) expect(v >= 0 && v <= 1).toBe(true);
  expect(before[0]).toBeGreaterThan(0.2); // 100 test pairs: chance 0.01
  expect(after[0]).toBeGreaterThan(0.2);
  expect(before[1]).toBeGreaterThanOrEqual(before[0]);
  const saved = loadSiameseHead(out);
  expect(saved.encoder).toBe(spec);
  expect(saved.head.dim).toBe(32);
  expect(saved.config.epochs).toBe(3);
}, 120_000);

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
  expect(r.out).toMatch(/^30 training pairs, 10 test pairs, 2 epochs/m);
  expect(r.out).toMatch(new RegExp(`after the head : ${P.source}`));
  expect(loadSiameseHead(join(dir, 'bert-head')).head.dim).toBe(32);
}, 120_000);

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
  expect(r.out).toMatch(new RegExp(`before the head: ${P.source}`));
}, 120_000);

test('siamese: bad arguments are one-line errors', () => {
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
  ] as const) {
    const r = mekong('siamese', ...args);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  }
});
