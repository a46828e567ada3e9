// EM on a tiny corpus whose alignment is known: das/the, haus/house, buch/book, ein/a.
import { describe, expect, test } from 'vitest';
import type { JobProgress } from '../../../src/main/jobs/job-context.ts';
import { alignCorpus, alignCorpusStreamed, type AlignPhase } from '../../../src/main/align/engine.ts';
import { STATISTICAL_PLANS } from '../../../src/main/align/train-plans.ts';
import { CancelledError } from '../../../src/main/errors.ts';
import { lineSentences, tokenize } from '../../../src/main/align/text-io.ts';

const src = ['das haus', 'das buch', 'ein buch', 'ein haus', 'das ein buch'].map((s) => s.split(' '));
const tgt = ['the house', 'the book', 'a book', 'a house', 'the a book'].map((s) => s.split(' '));
const expected = [
  ['0-0', '1-1'],
  ['0-0', '1-1'],
  ['0-0', '1-1'],
  ['0-0', '1-1'],
  ['0-0', '1-1', '2-2'],
];

describe.each(Object.keys(STATISTICAL_PLANS))('method %s', (method) => {
  test('recovers the known word alignment', async () => {
    const { links } = await alignCorpus(src, tgt, { method, sym: 'intersect' });
    expect(links.map((ls) => ls.map((l) => `${l.s}-${l.t}`))).toEqual(expected);
  });

  test('every link carries a posterior in (0, 1], confident on this corpus', async () => {
    const { links } = await alignCorpus(src, tgt, { method, sym: 'union' });
    for (const l of links.flat()) {
      expect(l.score).toBeGreaterThan(0.5);
      expect(l.score).toBeLessThanOrEqual(1);
    }
  });
});

test('IBM1 lexical table converges to the true translations', async () => {
  const { model } = await alignCorpus(src, tgt, { method: 'ibm1' });
  const t = (s: string, f: string) => {
    const si = model.srcVocab.indexOf(s),
      ti = model.tgtVocab.indexOf(f);
    for (let p = 0; p < model.pairSrc.length; p++) if (model.pairSrc[p] === si && model.pairTgt[p] === ti) return model.fwd.lex.t[p];
    return 0;
  };
  expect(t('haus', 'house')).toBeGreaterThan(0.6);
  expect(t('buch', 'book')).toBeGreaterThan(0.6);
  expect(t('haus', 'house')).toBeGreaterThan(3 * t('haus', 'the'));
});

test('worker threads give the same alignment as the calling thread', async () => {
  const a = await alignCorpus(src, tgt, { method: 'agree', workers: false });
  const b = await alignCorpus(src, tgt, { method: 'agree', workers: true });
  expect(b.links).toEqual(a.links);
});

test("streamed links are the same lists, in pair order over every thread's slice, made once read", async () => {
  const many = (side: string[][], empty: string[]) => [...Array.from({ length: 40 }, (_, k) => side[k % side.length]), empty];
  const [s, t] = [many(src, []), many(tgt, ['the'])];
  const phases: AlignPhase[] = [];
  const whole = await alignCorpus(s, t, { method: 'agree', workers: true }, { onPhase: (p) => phases.push(p) });
  const streamed = await alignCorpusStreamed(s, t, { method: 'agree', workers: true }, { onPhase: (p) => phases.push(p) });
  expect(phases).toEqual(['bitext', 'trained', 'links', 'bitext', 'trained']);
  expect(Array.isArray(streamed.links)).toBe(false);
  const read = [...streamed.links];
  expect(read).toEqual(whole.links);
  // the model only when asked for: without it the last E-step gathers no counts, and the links are the same
  expect(streamed.model).toBeNull();
  const kept = await alignCorpusStreamed(s, t, { method: 'agree', workers: true, keepModel: true });
  expect(kept.model).toEqual(whole.model);
  expect([...kept.links]).toEqual(whole.links);
  expect(read).toHaveLength(41);
  expect(read[40]).toEqual([]);
  expect([...streamed.links]).toEqual([]);
});

test('empty sides give empty alignments, other pairs still align', async () => {
  const { links } = await alignCorpus([[], ...src, ['das']], [['the'], ...tgt, []], { method: 'hmm' });
  expect(links[0]).toEqual([]);
  expect(links[links.length - 1]).toEqual([]);
  expect(links[1].map((l) => `${l.s}-${l.t}`)).toEqual(['0-0', '1-1']);
});

test.each([false, true])('progress is reported and an abort cancels (workers: %s)', async (workers) => {
  const seen: [number, number][] = [];
  const progress = ({ done, total }: JobProgress) => void seen.push([done, total]);
  await alignCorpus(src, tgt, { method: 'hmm', workers }, { ctx: { progress, signal: new AbortController().signal } });
  expect(seen[seen.length - 1]).toEqual([10, 10]);
  const ctl = new AbortController();
  const run = alignCorpus(src, tgt, { method: 'hmm', workers }, { ctx: { progress: () => ctl.abort(), signal: ctl.signal } });
  await expect(run).rejects.toThrow(CancelledError);
});

test('lines read on demand align exactly as token arrays, lowercased alike; sizes match the tokens', async () => {
  const lines = ['Das  Haus', 'das\tbuch ', ' ein buch', 'EIN haus', 'das ein   buch', ''];
  const tgtLines = ['the house', 'the book', 'a book', 'a house', 'the a book', 'x'];
  const side = lineSentences(lines);
  expect(lines.map((_, k) => side.size(k))).toEqual(lines.map((_, k) => side.tokens(k).length));
  expect(side.tokens(1)).toEqual(['das', 'buch']);
  const lazy = await alignCorpus(side, lineSentences(tgtLines), { lowercase: true, workers: false });
  const eager = await alignCorpus(
    lines.map((l) => tokenize(l.toLowerCase())),
    tgtLines.map(tokenize),
    { workers: false },
  );
  expect(lazy.links).toEqual(eager.links);
  expect(lazy.links.slice(0, 5).map((ls) => ls.map((l) => `${l.s}-${l.t}`))).toEqual(expected);
});
