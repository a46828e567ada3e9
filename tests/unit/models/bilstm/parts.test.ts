// The neural aligner's parts: BPE subwords, CSLS extraction, the contrastive loss (eq. 12,
// checked against the formula computed by hand) and P@1 scoring.
import { describe, expect, test } from 'vitest';
import { contrastiveLoss, viewLoss } from '../../../../src/main/models/bilstm/contrastive.ts';
import { csls, topK } from '../../../../src/main/eval/csls.ts';
import { segmentWord, trainBpe } from '../../../../src/main/models/bilstm/subword.ts';
import { Graph, Program, Rng, Scope, floats } from '../../../../src/main/nn/index.ts';
import { l2Normalize } from '../../../../src/main/nn/ops/all-ops.ts';
import { parseDictionary, parseLexicon, scoreP1 } from '../../../../src/main/eval/p1.ts';

describe('BPE subwords', () => {
  test('merges frequent pairs, keeps Han characters apart', () => {
    const bpe = trainBpe(
      new Map([
        ['lower', 5],
        ['lowest', 4],
        ['low', 6],
        ['中国人', 9],
      ]),
      10,
    );
    expect(segmentWord(bpe, 'low')).toEqual(['low</w>']);
    expect(segmentWord(bpe, 'lowly')[0]).toBe('low');
    expect(segmentWord(bpe, '中国人')).toEqual(['中', '国', '人</w>']);
    expect(segmentWord(trainBpe(new Map([['ab', 1]]), 5), 'ab')).toEqual(['a', 'b</w>']);
  });

  test('learns the merges of the textbook algorithm, in its order: recount every pair, merge the most frequent (ties: the smaller)', () => {
    // the algorithm as Sennrich et al. state it, recounting all words for every merge
    const reference = (counts: Map<string, number>, merges: number): string[] => {
      const han = (x: string) => /\p{Script=Han}/u.test(x);
      const words = [...counts].map(([w, f]) => ({ f, syms: [...w].map((c, i, a) => (i === a.length - 1 ? c + '</w>' : c)) }));
      const out: string[] = [];
      for (let m = 0; m < merges; m++) {
        const pairs = new Map<string, number>();
        for (const { f, syms } of words)
          for (let i = 0; i + 1 < syms.length; i++)
            if (!han(syms[i]) && !han(syms[i + 1]))
              pairs.set(`${syms[i]} ${syms[i + 1]}`, (pairs.get(`${syms[i]} ${syms[i + 1]}`) ?? 0) + f);
        const best = [...pairs].filter(([, c]) => c > 1).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]?.[0];
        if (!best) break;
        out.push(best);
        const [a, b] = best.split(' ');
        for (const w of words) {
          const merged: string[] = [];
          for (let i = 0; i < w.syms.length; i++) {
            if (w.syms[i] === a && w.syms[i + 1] === b) {
              merged.push(a + b);
              i++;
            } else merged.push(w.syms[i]);
          }
          w.syms = merged;
        }
      }
      return out;
    };
    // words with repeated letters (overlapping pairs), many ties, Han, Thai and Lao
    const rng = new Rng(7);
    const letters = ['a', 'a', 'b', 'n', 'e', 'ก', 'า', 'ນ', '中'];
    const counts = new Map<string, number>();
    for (let k = 0; k < 400; k++) {
      const w = Array.from({ length: 1 + Math.floor(rng.next() * 7) }, () => letters[Math.floor(rng.next() * letters.length)]).join('');
      counts.set(w, 1 + Math.floor(rng.next() * 4));
    }
    for (const merges of [1, 10, 60, 300]) expect([...trainBpe(counts, merges).ranks.keys()]).toEqual(reference(counts, merges));
  });
});

describe('CSLS', () => {
  test('topK returns the largest first', () => {
    const v = [3, 9, 1, 7, 9.5];
    expect(topK(v.length, 3, (i) => v[i])).toEqual([4, 1, 3]);
  });

  test('demotes a hub that is close to every word', () => {
    // target 0 is a hub (cosine 0.9 with every source); source 2's own partner, target 1, is at 0.85
    const c = Float32Array.from([0.9, 0.1, 0.9, 0.2, 0.9, 0.85]);
    const m = csls(c, 3, 2, 2);
    expect(m[2 * 2 + 1]).toBeGreaterThan(m[2 * 2 + 0]);
    expect(m[0]).toBeGreaterThan(m[1]);
  });
});

function infoNceByHand(q: number[][], k: number[][], intra: boolean, tau: number): number {
  const norm = (v: number[]) => v.map((x) => x / Math.hypot(...v));
  const [Q, K] = [q.map(norm), k.map(norm)];
  const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / tau;
  let total = 0;
  Q.forEach((qi, i) => {
    let denom = K.reduce((s, kj) => s + Math.exp(dot(qi, kj)), 0);
    if (intra) denom += Q.reduce((s, qj, j) => s + (j === i ? 0 : Math.exp(dot(qi, qj))), 0);
    total += Math.log(denom) - dot(qi, K[i]);
  });
  return total / Q.length;
}

describe('contrastive loss (eq. 12)', () => {
  const q = [
    [1, 0.2, -0.3],
    [0.1, 1, 0.4],
    [-0.5, 0.3, 1],
    [0.7, 0.7, 0],
  ];
  const k = [
    [0.9, 0.1, -0.2],
    [0.3, 0.8, 0.1],
    [-0.2, 0.1, 1.2],
    [0.2, -0.4, 0.6],
  ];
  test.each([false, true])('matches the formula (intra-view negatives: %s)', async (intra) => {
    const g = new Graph();
    const qi = g.input('q', 'float32', ['B', 3]);
    const ki = g.input('k', 'float32', ['B', 3]);
    const prog = await Program.compile(g, { loss: viewLoss(l2Normalize(qi), l2Normalize(ki), intra, 0.5) }, { device: 'cpu' });
    const out = await prog.run({ q: floats(q.flat(), [4, 3]), k: floats(k.flat(), [4, 3]) });
    expect(Number(out.loss.data[0])).toBeCloseTo(infoNceByHand(q, k, intra, 0.5), 4);
    await prog.release();
  });

  test('intra-view negatives raise the loss', async () => {
    const run = async (negatives: 'inter' | 'inter+intra') => {
      const g = new Graph();
      const s = new Scope(g, new Rng(4));
      const views = Object.fromEntries(['encS', 'encT', 'decS', 'decT'].map((n) => [n, g.input(n, 'float32', ['B', 3])]));
      const loss = contrastiveLoss(s, views as never, { temperature: 0.5, negatives, pooling: 'mean' });
      const prog = await Program.compile(g, { loss }, { device: 'cpu' });
      const feeds = {
        encS: floats(q.flat(), [4, 3]),
        encT: floats(k.flat(), [4, 3]),
        decS: floats(k.flat(), [4, 3]),
        decT: floats(q.flat(), [4, 3]),
      };
      const params = Object.fromEntries([...g.params].map(([n, p]) => [n, p.init]));
      const v = Number((await prog.run({ ...feeds, ...params })).loss.data[0]);
      await prog.release();
      return v;
    };
    expect(await run('inter+intra')).toBeGreaterThan(await run('inter'));
  });

  test('separate heads (eq. 11): queries through g_q, keys through g_k; eq. 14 + 15 by hand on the heads’ initial weights', async () => {
    const g = new Graph();
    const s = new Scope(g, new Rng(5));
    const views = Object.fromEntries(['encS', 'encT', 'decS', 'decT'].map((n) => [n, g.input(n, 'float32', ['B', 3])]));
    const loss = contrastiveLoss(s, views as never, { temperature: 0.5, negatives: 'inter+intra', pooling: 'mean', heads: 'separate' });
    const prog = await Program.compile(g, { loss }, { device: 'cpu' });
    // the first layers' biases set to 1, so that ReLU leaves every projection non-zero (its cosine defined)
    const given: Record<string, number[]> = { 'ctl.q.g1.b': [1, 1, 1], 'ctl.k.g1.b': [1, 1, 1] };
    const param = (name: string) => given[name] ?? Array.from(g.params.get(name)!.init.data as Float32Array);
    expect([...g.params.keys()].filter((n) => n.startsWith('ctl.')).sort()).toEqual(
      ['ctl.k.g1.b', 'ctl.k.g1.w', 'ctl.k.g2.b', 'ctl.k.g2.w', 'ctl.q.g1.b', 'ctl.q.g1.w', 'ctl.q.g2.b', 'ctl.q.g2.w'].sort(),
    );
    // g(x) = relu(x·W1 + b1)·W2 + b2, W [in, out] row-major
    const layer = (x: number[], w: number[], b: number[]) => b.map((bj, j) => bj + x.reduce((a, xi, i) => a + xi * w[i * 3 + j], 0));
    const head = (name: string) => (x: number[]) =>
      layer(
        layer(x, param(`${name}.g1.w`), param(`${name}.g1.b`)).map((v) => Math.max(0, v)),
        param(`${name}.g2.w`),
        param(`${name}.g2.b`),
      );
    const [gq, gk] = [head('ctl.q'), head('ctl.k')];
    const [qs, qt, ks, kt] = [q.map(gq), k.map(gq), k.map(gk), q.map(gk)];
    const byHand =
      0.5 * (infoNceByHand(qs, kt, true, 0.5) + infoNceByHand(qt, ks, true, 0.5)) +
      0.5 * (infoNceByHand(qs, ks, false, 0.5) + infoNceByHand(qt, kt, false, 0.5));
    const feeds = {
      encS: floats(q.flat(), [4, 3]),
      encT: floats(k.flat(), [4, 3]),
      decS: floats(k.flat(), [4, 3]),
      decT: floats(q.flat(), [4, 3]),
    };
    const params = Object.fromEntries([...g.params].map(([n, p]) => [n, given[n] ? floats(given[n], [3]) : p.init]));
    expect(Number((await prog.run({ ...feeds, ...params })).loss.data[0])).toBeCloseTo(byHand, 4);
    await prog.release();
  });
});

describe('P@1', () => {
  const lexicon = parseLexicon('chat\tcat\t0.9\nchat\tdog\t0.95\nchien\tdog\t0.7\nmaison\thouse\t1\n', 'L');
  const dict = parseDictionary('chat\tcat\nchat\tkitty\nchien\tdog\nmaison\thouse\narbre\ttree\n', 'D');
  test('best-scored translation, missing words wrong', () => {
    expect(lexicon.get('chat')).toBe('dog');
    expect(scoreP1(lexicon, dict)).toEqual({ p1: 0.5, evaluated: 4, hits: 2 });
  });
  test('with a corpus, only source words whose translation occurs in it', () => {
    const corpus = { src: [['chat', 'chien', 'arbre']], tgt: [['cat', 'dog']] };
    expect(scoreP1(lexicon, dict, corpus)).toEqual({ p1: 0.5, evaluated: 2, hits: 1 });
  });
  test('a malformed line names file and line', () => {
    expect(() => parseLexicon('a\tb\n', 'lex.tsv')).toThrow(/lex\.tsv.*1|line 1/);
  });
});
