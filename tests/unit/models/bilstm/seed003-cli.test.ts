// Seed 003's settings on the command line, end to end on a generated corpus (synthetic.ts):
// `lexicon --extraction csls|nn` (the nearest words of the whole target vocabulary, every
// source word listed, best first, scored by `eval p1`), `--heads separate` (the contrastive
// loss's g_q and g_k: their parameters and the setting saved with the model), and their
// refusals as one-line errors.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { loadNeuralModel } from '../../../../src/main/models/bilstm/bilstm-folder.ts';
import { syntheticCorpus } from './synthetic.ts';

const dir = tempDir('mekong-seed003-');
const corpus = syntheticCorpus(120, 16, 9);
const S = join(dir, 'c.src'),
  T = join(dir, 'c.tgt'),
  D = join(dir, 'dict.tsv');
writeFileSync(S, corpus.src.map((s) => s.join(' ') + '\n').join(''));
writeFileSync(T, corpus.tgt.map((s) => s.join(' ') + '\n').join(''));
writeFileSync(D, [...corpus.translation].map(([s, t]) => `${s}\t${t}\n`).join(''));

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('lexicon --extraction csls: up to 5 words of the whole target vocabulary per source word, best first, scored by eval p1', () => {
  const out = join(dir, 'csls.lex');
  const r = mekong(
    ...['lexicon', '--method', 'bilstm-ctl', '--src', S, '--tgt', T, '--out', out],
    ...['--extraction', 'csls', '--epochs', '4', '--self-train', '0'],
  );
  expect(r.code, r.err).toBe(0);
  const rows = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  const bySrc = new Map<string, number[]>();
  for (const [s, , score] of rows) (bySrc.get(s) ?? bySrc.set(s, []).get(s)!).push(Number(score));
  const srcWords = new Set(corpus.src.flat()),
    tgtWords = new Set(corpus.tgt.flat());
  expect(new Set(bySrc.keys())).toEqual(srcWords);
  for (const scores of bySrc.values()) {
    expect(scores).toHaveLength(5);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  }
  expect(rows.every(([, t]) => tgtWords.has(t))).toBe(true);
  const p1 = JSON.parse(mekong('eval', 'p1', '--lexicon', out, '--dict', D, '--src', S, '--tgt', T).out);
  expect(p1.evaluated).toBe(srcWords.size);
  expect(p1.p1).toBeGreaterThan(1 / 16);
}, 120_000);

test('--heads separate trains g_q and g_k and saves the setting; shared keeps the one head', () => {
  const train = (name: string, heads: string) => {
    const r = mekong(
      ...['align', '--method', 'bilstm-ctl', '--src', S, '--tgt', T, '--out', join(dir, `${name}.txt`)],
      ...['--epochs', '1', '--self-train', '0', '--heads', heads, '--save-model', join(dir, name)],
    );
    expect(r.code, r.err).toBe(0);
    return loadNeuralModel(join(dir, name));
  };
  const separate = train('heads-separate', 'separate');
  expect(separate.config.heads).toBe('separate');
  const names = (m: ReturnType<typeof loadNeuralModel>) => [...m.params.keys()].filter((k) => k.startsWith('ctl.')).sort();
  expect(names(separate).some((k) => k.startsWith('ctl.q.g1'))).toBe(true);
  expect(names(separate).some((k) => k.startsWith('ctl.k.g1'))).toBe(true);
  expect(names(separate).some((k) => k.startsWith('ctl.g1'))).toBe(false);
  const shared = train('heads-shared', 'shared');
  expect(names(shared).some((k) => k.startsWith('ctl.g1'))).toBe(true);
  expect(names(shared).some((k) => k.startsWith('ctl.q.'))).toBe(false);
}, 120_000);

test.each([
  [['--extraction', 'cosine'], 'mekong: --extraction of bilstm-ctl must be one of em, csls, nn, got "cosine"'],
  [['--method', 'agree', '--extraction', 'csls'], /^mekong: --extraction is for the neural methods \(bilstm-ctl, bilstm\) and bisent2vec$/],
  [['--heads', 'two'], 'mekong: --heads must be one of shared, separate, got "two"'],
  [['--method', 'bilstm', '--heads', 'separate'], 'mekong: --heads is for the contrastive loss of bilstm-ctl; bilstm trains without it'],
  [
    ['--extraction', 'csls', '--dict', D, '--dict-use', 'prior'],
    'mekong: --dict-use prior makes the dictionary a prior of the em extraction; --extraction csls has none',
  ],
])('a bad option is a one-line error: %s', (opt, message) => {
  // refused before any training; the last line of stderr (a --dict is announced first)
  const r = mekong('lexicon', '--src', S, '--tgt', T, '--out', join(dir, 'x.lex'), ...opt);
  expect(r.code).toBe(1);
  const last = r.err.trim().split('\n').at(-1)!;
  if (typeof message === 'string') expect(last).toBe(message);
  else expect(last).toMatch(message);
});
