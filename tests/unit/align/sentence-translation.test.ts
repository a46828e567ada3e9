// The IBM1 sentence translation score (align/sentence-translation.ts): by hand on a two-word
// table, and on tables trained on 2,000 Multi30k en–fr pairs (../shared/data, skipped when
// absent), where a caption's translation outscores the other captions' translations.
import { describe, expect, test } from 'vitest';
import { M30K_AVAILABLE, m30kPairs } from '../models/siamese/bench-pairs.ts';
import { type SavedModel, UNSEEN } from '../../../src/main/align/statistical-model.ts';
import { SentenceTranslation, trainSentenceTranslation } from '../../../src/main/align/sentence-translation.ts';

/** Source words chat, noir; target words cat, black; t given for (chat, cat) and (noir, black) only. */
const table: SavedModel = {
  method: 'ibm1',
  lowercase: true,
  srcVocab: ['chat', 'noir'],
  tgtVocab: ['cat', 'black'],
  pairSrc: Int32Array.from([0, 1]),
  pairTgt: Int32Array.from([0, 1]),
  // fwd: t(target | source) per pair, tNull by target id; rev: t(source | target), tNull by source id.
  fwd: { params: { kind: 'ibm1' }, lex: { t: Float32Array.from([0.8, 0.6]), tNull: Float32Array.from([0.1, 0.2]) } },
  rev: { params: { kind: 'ibm1' }, lex: { t: Float32Array.from([0.7, 0.5]), tNull: Float32Array.from([0.05, 0.3]) } },
};

describe('IBM1 sentence translation score', () => {
  test('½ [(1/J) Σ_j log p(t_j | s) + (1/I) Σ_i log p(s_i | t)] by hand', () => {
    const lex = new SentenceTranslation(table);
    const [s] = lex.encode(0, [['Chat', 'noir']]);
    const [t] = lex.encode(1, [['cat']]);
    expect([...s]).toEqual([0, 1]); // lowercased as the tables were
    // fwd: p(cat | chat noir) = (tNull(cat) + t(cat|chat) + t(cat|noir) unseen) / 3
    const fwd = Math.log((0.1 + 0.8 + UNSEEN) / 3);
    // rev: p(chat | cat) = (0.05 + 0.7) / 2, p(noir | cat) = (0.3 + unseen) / 2
    const rev = (Math.log((0.05 + 0.7) / 2) + Math.log((0.3 + UNSEEN) / 2)) / 2;
    expect(lex.score(s, t)).toBeCloseTo((fwd + rev) / 2, 6);
  });

  test('unknown words count as unseen, an empty side as log unseen', () => {
    const lex = new SentenceTranslation(table);
    const [s] = lex.encode(0, [['chien']]);
    const [t] = lex.encode(1, [['dog']]);
    expect([...s]).toEqual([-1]);
    expect(lex.score(s, t)).toBeCloseTo(Math.log(UNSEEN), 6);
    expect(lex.score(s, new Int32Array(0))).toBeCloseTo(Math.log(UNSEEN), 6);
  });
});

describe.skipIf(!M30K_AVAILABLE)('on Multi30k en–fr', () => {
  test("a caption's translation outscores the other captions'", async () => {
    const { src: en, tgt: fr } = m30kPairs(2100);
    const lex = new SentenceTranslation(await trainSentenceTranslation(en.slice(100), fr.slice(100)));
    const s = lex.encode(0, en.slice(0, 100)),
      t = lex.encode(1, fr.slice(0, 100));
    let best = 0;
    for (let i = 0; i < 100; i++) {
      let top = 0;
      for (let j = 1; j < 100; j++) if (lex.score(s[i], t[j]) > lex.score(s[i], t[top])) top = j;
      best += +(top === i);
    }
    expect(best).toBeGreaterThanOrEqual(80);
  }, 30_000);
});
