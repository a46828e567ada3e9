// Sentence-level curation end to end on real text (models/bisent2vec/curation.ts): a model
// trained on 2,700 Multi30k en–fr pairs (../shared/data, skipped when absent), with its
// thresholds from held-out pairs, flags the 30 pairs of 300 unseen ones whose targets were
// shuffled, and mines 100 of those pairs back from among lone sentences.
import { describe, expect, test } from 'vitest';
import { M30K_AVAILABLE, m30kPairs } from '../siamese/bench-pairs.ts';
import { Rng } from '../../../../src/main/nn/init.ts';
import { mineSentences, scoreCorpusPairs, shuffleTargets, trainForCuration } from '../../../../src/main/models/bisent2vec/curation.ts';

describe.skipIf(!M30K_AVAILABLE)('curation on Multi30k en–fr', () => {
  test('flags shuffled pairs and mines hidden ones', async () => {
    const { src: en, tgt: fr } = m30kPairs(3600);
    const t = await trainForCuration(en.slice(600, 3600), fr.slice(600, 3600));
    expect(t.heldOut).toBe(300);
    const { tgt, bad } = shuffleTargets(fr.slice(0, 300), 0.1, new Rng(2));
    const scores = await scoreCorpusPairs(t.model, en.slice(0, 300), tgt, t.model.thresholds!.flagging);
    const flagged = scores.filter((s) => s.flagged).length;
    const hits = scores.filter((s, i) => s.flagged && bad[i]).length;
    expect(hits / 30).toBeGreaterThanOrEqual(0.8);
    expect(hits / flagged).toBeGreaterThanOrEqual(0.8);
    // The reason of a flag: a rival that outscores the pair.
    const flag = scores.find((s, i) => s.flagged && bad[i])!;
    expect(flag.rival!.score).toBeGreaterThan(flag.score);

    // 100 pairs hidden among 300 lone sentences per side (from other lines).
    const src = [...en.slice(0, 100), ...en.slice(100, 300)],
      tgtSide = [...fr.slice(300, 500), ...fr.slice(0, 100)];
    const mined = await mineSentences(t.model, src, tgtSide, t.model.thresholds!.mining);
    const right = mined.filter((p) => p.tgt === p.src + 200).length;
    // (90 of 99 proposed here with the IBM1 term)
    expect(right / 100).toBeGreaterThanOrEqual(0.8);
    expect(right / mined.length).toBeGreaterThanOrEqual(0.8);
  }, 60_000);
});
