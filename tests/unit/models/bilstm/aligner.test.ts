// The neural aligner end to end on a generated corpus (synthetic.ts): training lowers the
// loss, CSLS extraction recovers the known alignment (random links score an AER near 0.8),
// and the lexicon finds the known translations.
import { describe, expect, test } from 'vitest';
import { embedPairs, extractLinks } from '../../../../src/main/models/bilstm/aligner.ts';
import { trainNeural } from '../../../../src/main/models/bilstm/bilstm-train.ts';
import { neuralLexicon } from '../../../../src/main/models/bilstm/word-translations.ts';
import { aer, syntheticCorpus } from './synthetic.ts';

const corpus = syntheticCorpus(240, 30);
const config = { dim: 32, epochs: 12, batchSize: 24, merges: 10, lr: 1e-2 };

describe('bilstm-ctl on a generated corpus', () => {
  test('trains, aligns and builds a lexicon', async () => {
    const losses: number[] = [];
    const model = await trainNeural(corpus, config, { onEvent: (e) => void (e.type === 'epoch' && losses.push(e.loss)) });
    const embeddings = await embedPairs(model, corpus.src, corpus.tgt);
    const r = { links: extractLinks(corpus.src, corpus.tgt, embeddings), embeddings };
    expect(losses[losses.length - 1]).toBeLessThan(losses[0] * 0.7);
    const trainedAer = aer(r.links, corpus.gold);
    console.info(`neural: synthetic AER ${trainedAer.toFixed(3)}, loss ${losses[0].toFixed(2)} → ${losses[losses.length - 1].toFixed(2)}`);
    expect(trainedAer).toBeLessThan(0.3);
    for (const ls of r.links) for (const l of ls) expect(l.score).toBeGreaterThanOrEqual(0);
    const lex = await neuralLexicon(corpus.src, corpus.tgt, r.embeddings, 1);
    const hits = lex.filter((e) => corpus.translation.get(e.src) === e.tgt).length;
    expect(hits / lex.length).toBeGreaterThan(0.5);
  }, 120_000);
});
