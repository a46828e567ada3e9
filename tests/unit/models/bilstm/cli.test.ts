// `mekong align --method bilstm-ctl` (training, saving, reusing and continuing a model),
// `mekong lexicon` and `mekong eval p1` end to end on a generated corpus (synthetic.ts)
// written to a temporary folder.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { loadNeuralModel } from '../../../../src/main/models/bilstm/bilstm-folder.ts';
import { decisionMismatch } from '../../../../src/main/models/bilstm/link-classifier.ts';
import { DEFAULT_CONFIG, SUPERVISED_WEIGHTS } from '../../../../src/main/models/bilstm/bilstm-train.ts';
import { defaultSelfTrainEpochs } from '../../../../src/shared/epochs.ts';
import { aer, syntheticCorpus } from './synthetic.ts';

const dir = tempDir();
const corpus = syntheticCorpus(160, 20, 5);
const S = join(dir, 'c.src'),
  T = join(dir, 'c.tgt'),
  G = join(dir, 'gold.txt'),
  D = join(dir, 'dict.tsv');
writeFileSync(S, corpus.src.map((s) => s.join(' ') + '\n').join(''));
writeFileSync(T, corpus.tgt.map((s) => s.join(' ') + '\n').join(''));
writeFileSync(
  G,
  corpus.gold
    .slice(0, 10)
    .map((g) => g.map((l) => `${l.s}-${l.t}`).join(' ') + '\n')
    .join(''),
);
writeFileSync(D, [...corpus.translation].map(([s, t]) => `${s}\t${t}\n`).join(''));

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** `mekong align` of the corpus with bilstm-ctl into `out`. */
const alignBilstm = (out: string, ...more: string[]) =>
  mekong('align', '--src', S, '--tgt', T, '--out', out, '--method', 'bilstm-ctl', ...more);

test('align with gold supervision, save and reuse the model; lexicon and P@1', () => {
  const out = join(dir, 'links.txt');
  const saved = join(dir, 'model');
  const r = alignBilstm(out, '--epochs', '8', '--self-train', '0', '--gold', G, '--save-model', saved);
  expect(r.code, r.err).toBe(0);
  const again = join(dir, 'again.txt');
  expect(alignBilstm(again, '--model', saved).code).toBe(0);
  const [first, second] = [readFileSync(out, 'utf8').split('\n'), readFileSync(again, 'utf8').split('\n')];
  expect(second.slice(10)).toEqual(first.slice(10)); // same model links (the first 10 pairs also carry gold)
  const pred = readFileSync(out, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => l.split(' ').map((x) => ({ s: Number(x.split('-')[0]), t: Number(x.split('-')[1]) })));
  expect(pred).toHaveLength(160);
  expect(aer(pred.slice(10), corpus.gold.slice(10))).toBeLessThan(0.4);
  // continuing the saved model for 1 epoch starts from its parameters (they move little); a
  // fresh 1-epoch model does not. (Links cannot tell them apart here: on this generated corpus
  // the extraction's EM finds the alignment even from a 1-epoch model.)
  const continued = join(dir, 'continued'),
    fresh = join(dir, 'fresh');
  const run = (...more: string[]) => alignBilstm(join(dir, 'x.txt'), '--epochs', '1', '--self-train', '0', ...more);
  expect(run('--continue', saved, '--save-model', continued).code).toBe(0);
  expect(run('--save-model', fresh).code).toBe(0);
  const [from, cont, scratch] = [saved, continued, fresh].map((d) => loadNeuralModel(d).params);
  const distance = (p: typeof from) => {
    let diff = 0,
      norm = 0;
    for (const [name, t] of from) {
      const a = t.data as Float32Array,
        b = p.get(name)!.data as Float32Array;
      expect(b.length).toBe(a.length);
      for (let x = 0; x < a.length; x++) {
        diff += (a[x] - b[x]) ** 2;
        norm += a[x] ** 2;
      }
    }
    return Math.sqrt(diff / norm);
  };
  console.info(
    `neural CLI: relative distance to the saved parameters after 1 epoch: continued ${distance(cont).toFixed(3)}, fresh ${distance(scratch).toFixed(3)}`,
  );
  expect(distance(cont)).toBeLessThan(distance(scratch) / 2);
  const lex = join(dir, 'lex.tsv');
  expect(mekong('lexicon', '--src', S, '--tgt', T, '--out', lex, '--method', 'ibm2').code).toBe(0);
  const p1 = JSON.parse(mekong('eval', 'p1', '--lexicon', lex, '--dict', D, '--src', S, '--tgt', T).out);
  expect(p1.evaluated).toBe(20);
  expect(p1.p1).toBeGreaterThan(0.5);
}, 120_000);

test('from 40 gold pairs on, a quarter teach the link decision, saved with the model and reused by --model', () => {
  const G100 = join(dir, 'gold100.txt'),
    out = join(dir, 'held.txt'),
    again = join(dir, 'held-again.txt'),
    saved = join(dir, 'held-model');
  writeFileSync(
    G100,
    corpus.gold
      .slice(0, 100)
      .map((g) => g.map((l) => `${l.s}-${l.t}`).join(' ') + '\n')
      .join(''),
  );
  const common = ['align', '--src', S, '--tgt', T, '--method', 'bilstm-ctl', '--gold', G100];
  expect(
    mekong(
      ...common,
      '--out',
      out,
      '--epochs',
      '2',
      '--self-train',
      '0',
      '--word-dropout',
      '0.5',
      '--save-model',
      saved,
      '--scores',
      out + '.p',
    ).code,
  ).toBe(0);
  const { decision, config } = loadNeuralModel(saved);
  expect(config.wordDropout).toBe(0.5);
  expect(decision?.stages.map((st) => st.weights.length)).toEqual([25, 33]);
  expect(decisionMismatch(decision!)).toBeNull();
  expect(decision!.threshold > 0 && decision!.threshold < 1).toBe(true);
  expect(mekong(...common, '--out', again, '--model', saved).code).toBe(0);
  expect(readFileSync(again, 'utf8').split('\n').slice(100)).toEqual(readFileSync(out, 'utf8').split('\n').slice(100));
  const scores = readFileSync(out + '.p', 'utf8')
    .split('\n')
    .slice(100)
    .join(' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((l) => Number(l.split(':')[1]));
  expect(scores.length).toBeGreaterThan(100);
  for (const p of scores) expect(p >= decision!.threshold && p < 1).toBe(true);
  // a decision fitted by an older version (fewer second-stage features) is refused, not misapplied
  const meta = JSON.parse(readFileSync(join(saved, 'config.json'), 'utf8'));
  meta.decision.stages[1].weights = meta.decision.stages[1].weights.slice(0, 31);
  writeFileSync(join(saved, 'config.json'), JSON.stringify(meta));
  const old = mekong(...common, '--out', again, '--model', saved);
  expect(old.code).toBe(1);
  expect(old.err).toMatch(/held-model: its link decision has 25 \+ 31 weights where this version of Mekong computes 25 \+ 33; align again/);
}, 120_000);

test("--pseudo: another aligner's links scoring at least the threshold supervise training", () => {
  const P = join(dir, 'pseudo.p');
  // the first 80 pairs' true links scored 0.95, one wrong link each scored 0.5, as `--scores` writes them
  writeFileSync(
    P,
    corpus.gold
      .slice(0, 80)
      .map((g) => [...g.map((l) => `${l.s}-${l.t}:0.95`), `0-${g.length - 1}:0.5`].join(' ') + '\n')
      .join(''),
  );
  const train = (model: string, ...more: string[]) =>
    alignBilstm(join(dir, 'p.txt'), '--epochs', '1', '--pseudo', P, '--save-model', join(dir, model), ...more);
  expect(train('pseudo-model').code).toBe(0);
  expect(loadNeuralModel(join(dir, 'pseudo-model')).config.weights).toEqual(SUPERVISED_WEIGHTS);
  expect(train('pseudo-none', '--pseudo-threshold', '0.99').code).toBe(0);
  expect(loadNeuralModel(join(dir, 'pseudo-none')).config.weights).toEqual(DEFAULT_CONFIG.weights);
  writeFileSync(join(dir, 'bad.p'), '0-0:0.9\n0-1:1.5\n');
  const bad = alignBilstm(join(dir, 'p.txt'), '--pseudo', join(dir, 'bad.p'));
  expect(bad.code).toBe(1);
  expect(bad.err).toMatch(/bad\.p:2: bad link "0-1:1\.5": score above 1/);
  const statistical = mekong('align', '--src', S, '--tgt', T, '--out', join(dir, 'p.txt'), '--method', 'ibm2', '--pseudo', P);
  expect(statistical.err).toMatch(/--pseudo is for the neural methods/);
}, 120_000);

test('--self-train N: N epochs more from the trained model, on its own links scoring at least the threshold', () => {
  const train = (model: string, ...more: string[]) =>
    alignBilstm(join(dir, 's.txt'), '--epochs', '2', '--self-train', '1', '--save-model', join(dir, model), ...more);
  expect(train('self-model').code).toBe(0);
  const { config } = loadNeuralModel(join(dir, 'self-model'));
  expect([config.epochs, config.selfTrainEpochs]).toEqual([2, 1]);
  expect(config.weights).toEqual(SUPERVISED_WEIGHTS); // the second round learned from the first one's links
  expect(train('self-none', '--self-train', '0').code).toBe(0); // 0 = none (the later option wins)
  const none = loadNeuralModel(join(dir, 'self-none')).config;
  expect([none.selfTrainEpochs, none.weights]).toEqual([undefined, DEFAULT_CONFIG.weights]);
  // without --self-train: the default for the corpus size (160 pairs: shared/epochs.ts)
  const byDefault = alignBilstm(join(dir, 's.txt'), '--epochs', '1', '--save-model', join(dir, 'self-default'));
  expect(byDefault.code, byDefault.err).toBe(0);
  expect(loadNeuralModel(join(dir, 'self-default')).config.selfTrainEpochs).toBe(defaultSelfTrainEpochs(160));
}, 120_000);

test("seed 003's settings reach the training: --lr, --batch, --seed, --negatives, --pooling (saved config); another seed trains other weights", () => {
  const train = (name: string, seed: string) => {
    const common = ['--epochs', '1', '--self-train', '0', '--lr', '0.01', '--batch', '8', '--negatives', 'inter', '--pooling', 'max'];
    const r = alignBilstm(join(dir, `${name}.txt`), ...common, '--seed', seed, '--save-model', join(dir, name));
    expect(r.code, r.err).toBe(0);
    return loadNeuralModel(join(dir, name));
  };
  const a = train('settings-a', '3');
  expect(a.config).toMatchObject({ lr: 0.01, batchSize: 8, seed: 3, negatives: 'inter', pooling: 'max' });
  const b = train('settings-b', '4');
  expect(b.config.seed).toBe(4);
  const [name, first] = [...a.params][0];
  expect(b.params.get(name)?.data).not.toEqual(first.data);
}, 120_000);

test.each([
  [['--epochs', 'zero'], /--epochs must be a positive integer/],
  [['--pseudo', G, '--pseudo-threshold', '2'], /--pseudo-threshold must be a number in \[0, 1\]/],
  [['--pseudo-threshold', '0.5', '--self-train', '0'], /give one of them too/],
  [['--self-train', '1.5'], /--self-train must be a whole number of epochs/],
  [['--pseudo', G, '--model', 'b'], /--model aligns without training: --pseudo would not be used/],
  [['--self-train', '2', '--model', 'b'], /--model aligns without training: --self-train would not be used/],
  [['--held-out', '1'], /--held-out must be a number in \[0, 1\)/],
  [['--weights', '0.8,0.1'], /--weights must be three numbers/],
  [['--word-dropout', '-1'], /--word-dropout must be a number from 0 to 100/],
  [['--continue', 'a', '--model', 'b'], /give one of them/],
  [['--lr', '0'], /--lr must be a number in \(0, 1\], got "0"/],
  [['--batch', '8.5'], /--batch must be a whole number from 1 to 512/],
  [['--seed', 'x'], /--seed must be an integer, got "x"/],
  [['--negatives', 'intra'], /--negatives must be one of inter, inter\+intra, got "intra"/],
  [['--pooling', 'cls'], /--pooling must be one of mean, max, got "cls"/],
  [['--method', 'bilstm', '--negatives', 'inter'], /--negatives is for the contrastive loss of bilstm-ctl; bilstm trains without it/],
  [['--method', 'agree', '--seed', '2'], /--seed is for /],
])('a bad option is a one-line error: %s', (opt, message) => {
  const r = alignBilstm(join(dir, 'x'), ...opt);
  expect(r.code).toBe(1);
  expect(r.err).toMatch(message);
});

test('--device: a forced GPU falls back to the CPU and says so; an unknown device is a one-line error', () => {
  const out = join(dir, 'device.txt');
  const r = alignBilstm(out, '--epochs', '1', '--self-train', '0', '--device', 'cuda');
  expect(r.code, r.err).toBe(0);
  expect(r.out + r.err).toMatch(/nn: execution provider cpu \(requested cuda; unavailable: cuda: /);
  expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(160);
  const bad = mekong('lexicon', '--src', S, '--tgt', T, '--out', join(dir, 'x.tsv'), '--device', 'tpu');
  expect(bad.code).toBe(1);
  expect(bad.err.trim().split('\n')).toHaveLength(1);
  expect(bad.err).toMatch(/--device <name>' argument 'tpu' is invalid\. Allowed choices are auto, cuda, dml, coreml, webgpu, cpu/);
  const statistical = mekong('align', '--src', S, '--tgt', T, '--out', out, '--method', 'ibm1', '--device', 'cpu');
  expect(statistical.err).toMatch(/--device is for the neural methods/);
});
