// Seed 003's P@1 end to end on vectors with known neighbours: each source word's nearest word
// of the whole target vocabulary (CSLS, K = 3, or the plain cosine), scored by `mekong eval p1`
// over the words of the source corpus that the dictionary lists with a translation occurring in
// the target corpus (eval/p1.ts), against a hand count.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { embeddings, src, tgt } from './plane-words.ts';
import { vocabularyLexicon } from '../../../src/main/models/bilstm/word-translations.ts';

const e = embeddings;
// The dictionary: a p; b q; c q; d t (t is not in the target corpus); e p (e is not in the source corpus).
//   Evaluated with the corpus: a, b, c (d: no translation in T; e: not in S).
//   CSLS: a ✓, b ✗ (p), c ✗ (r): 1/3.  Cosine: a ✓, b ✗, c ✓ (q): 2/3.
//   Without the corpus every headword counts: CSLS a ✓, b ✗, c ✗, d ✗ (s), e ✗ (missing): 1/5.
const dict = 'a\tp\nb\tq\nc\tq\nd\tt\ne\tp\n';

const dir = tempDir('mekong-p1-');
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const mekong = (...args: string[]) => spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });

test('eval p1 of the CSLS and the nearest-neighbour lexicons, with and without the corpus, by hand', async () => {
  const D = write('dict.tsv', dict);
  const S = write('src.txt', src.map((s) => s.join(' ') + '\n').join(''));
  const T = write('tgt.txt', tgt.map((s) => s.join(' ') + '\n').join(''));
  const lexicon = async (extraction: 'csls' | 'nn') =>
    write(
      `${extraction}.lex`,
      (await vocabularyLexicon(src, tgt, e, extraction, 5)).map((x) => `${x.src}\t${x.tgt}\t${x.score}\n`).join(''),
    );
  const p1 = (...args: string[]) => {
    const r = mekong('eval', 'p1', '--dict', D, ...args);
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };
  const csls = await lexicon('csls'),
    nn = await lexicon('nn');
  expect(p1('--lexicon', csls, '--src', S, '--tgt', T)).toEqual({ p1: 1 / 3, evaluated: 3, hits: 1 });
  expect(p1('--lexicon', nn, '--src', S, '--tgt', T)).toEqual({ p1: 2 / 3, evaluated: 3, hits: 2 });
  expect(p1('--lexicon', csls)).toEqual({ p1: 1 / 5, evaluated: 5, hits: 1 });
}, 60_000);
