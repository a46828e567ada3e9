// The review queue and the concordance as a million-pair project needs them (issue 41 item
// 3): the queue ranks pairs by per-pair summaries of the model's links kept since the Align
// job stored them (store/link-summaries.ts), which must give the order reading the links
// gives, follow an edit of those links, and page exactly as a full sort would; the
// concordance reads only the pairs whose texts may hold both words, in full only for its
// page, and still finds every casing of a word (Ü, final sigma, the Kelvin sign).
import { describe, expect, test } from 'vitest';
import type { Link } from '../../../src/shared/domain.ts';
import { occurrences } from '../../../src/main/review/concordance.ts';
import { queueOrder, reviewQueue } from '../../../src/main/review/queue.ts';
import { recordEdit } from '../../../src/main/store/edits.ts';
import { storeModelAlignment } from '../../../src/main/store/model-alignments.ts';
import { newestModelAlignment, pairLinksReader } from '../../../src/main/store/alignments.ts';
import { caseBlindPattern } from '../../../src/main/store/pairs.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { seeded } from '../../bench/team-load.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { project } from './fixture.ts';

const dir = tempDir('mekong-large-queries-');

/** `n` pairs of 3–7 tokens a side, and a model's links with posteriors (some repeated, so scores tie). */
function corpus(n: number, seed: number): { pairs: [string, string][]; links: Link[][] } {
  const random = seeded(seed);
  const pairs: [string, string][] = [];
  const links: Link[][] = [];
  for (let k = 0; k < n; k++) {
    const [ns, nt] = [3 + Math.floor(random() * 5), 3 + Math.floor(random() * 5)];
    pairs.push([Array.from({ length: ns }, (_, i) => `s${i}`).join(' '), Array.from({ length: nt }, (_, i) => `t${i}`).join(' ')]);
    const ls: Link[] = [];
    for (let s = 0; s < ns; s++)
      if (random() < 0.7) ls.push({ s, t: Math.floor(random() * nt), kind: 'sure', score: [0.5, 0.9, 1, null][Math.floor(random() * 4)] });
    // a link set in (t, s) order: the summary must not depend on the order links come in
    links.push([...new Map(ls.map((l) => [`${l.s}-${l.t}`, l])).values()].sort((a, b) => a.t - b.t || a.s - b.s));
  }
  return { pairs, links };
}

describe('review queue on kept link summaries', () => {
  test('the order after the Align job stored the links is the order read from them, and follows an edit of them', async () => {
    const { pairs, links } = corpus(300, 5);
    const { store, ids } = project(dir, pairs);
    await storeModelAlignment(store, { name: 'model' }, ids, (k) => links[k]);
    const m = newestModelAlignment(store)!;
    const kept = queueOrder(store, { alignmentId: m });
    const path = store.path;
    const reopened = ProjectStore.open(path);
    expect(queueOrder(reopened, { alignmentId: m })).toEqual(kept);
    // each score is the header's formula: mean binary entropy per decision, an uncovered token a coin flip
    const H = (p: number | null) => (p === null || p <= 0 || p >= 1 ? 0 : -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p)));
    for (const { id, score } of kept) {
      const k = ids.indexOf(id);
      const [ns, nt] = pairs[k].map((side) => side.split(' ').length);
      const uncovered = ns - new Set(links[k].map((l) => l.s)).size + nt - new Set(links[k].map((l) => l.t)).size;
      const h = links[k].reduce((sum, l) => sum + H(l.score), 0);
      expect(score).toBeCloseTo((h + uncovered) / (links[k].length + uncovered), 12);
    }

    // an edit of the model's links of the last pair in the order (a token merge carries every alignment's links)
    const last = kept.at(-1)!.id;
    const before = pairLinksReader(store)(m, last);
    const after: Link[] = [
      { s: 0, t: 0, kind: 'sure', score: 0.5 },
      { s: 1, t: 1, kind: 'sure', score: 0.5 },
    ];
    recordEdit(reopened, 'ann', last, 'tokens.merge', { links: { [m]: before } }, { links: { [m]: after } });
    const edited = queueOrder(store, { alignmentId: m });
    expect(edited).not.toEqual(kept);
    expect(edited).toEqual(queueOrder(reopened, { alignmentId: m }));
    const fresh = ProjectStore.open(path);
    expect(edited).toEqual(queueOrder(fresh, { alignmentId: m }));
    for (const s of [store, reopened, fresh]) s.close();
  });

  test('pages of the queue are the full order cut in pieces, ties in pair id order', async () => {
    const { pairs, links } = corpus(400, 9);
    const { store, ids } = project(dir, pairs);
    await storeModelAlignment(store, { name: 'model' }, ids, (k) => links[k]);
    const m = newestModelAlignment(store)!;
    const full = queueOrder(store, { alignmentId: m });
    expect(new Set(full.map((o) => o.score)).size).toBeLessThan(full.length / 2);
    const paged = [];
    for (let offset = 0; offset < full.length; offset += 7)
      paged.push(...reviewQueue(store, { alignmentId: m, offset, limit: 7 }).items.map(({ id, score }) => ({ id, score })));
    expect(paged).toEqual(full);
    expect(reviewQueue(store, { alignmentId: m, offset: 0, limit: 7 }).total).toBe(400);
    store.close();
  });
});

describe('concordance of a large project', () => {
  const PAIRS: [string, string][] = [
    ['Über den Fluss', 'ΟΔΟΣ over the river'],
    ['über alles', 'the οδος'],
    ['ÜBER die Brücke', 'theory of the bridge'],
    ['nicht darüber', 'the thing'], // darüber is not the word über
    ['ÜBER \u212Aelvin', 'οδοσ'], // the Kelvin sign lowercases to k
    ['über', 'theory'], // theory is not the word the
    ['über kelvin', 'ΟΔΟΣ the'],
  ];

  test('finds every casing of both words, counts them all and gives the first `limit` in full', () => {
    const { store, ids } = project(dir, PAIRS);
    const all = occurrences(store, 'ann', 'Über', 'the', null);
    expect(all.occurrences.map((o) => o.pairId)).toEqual([ids[0], ids[1], ids[2], ids[6]]);
    expect(all.total).toBe(4);
    const page = occurrences(store, 'ann', 'über', 'the', null, 2);
    expect(page.occurrences.map((o) => [o.pairId, o.srcAt, o.tgtAt])).toEqual([
      [ids[0], [0], [2]],
      [ids[1], [0], [0]],
    ]);
    expect(page.total).toBe(4);
    // Σ lowercases to σ, or to ς ending a word: either spelling of the word finds it
    expect(occurrences(store, 'ann', 'über', 'οδος', null).occurrences.map((o) => o.pairId)).toEqual([ids[0], ids[1], ids[6]]);
    expect(occurrences(store, 'ann', 'kelvin', 'οδοσ', null).occurrences.map((o) => o.pairId)).toEqual([ids[4]]);
    store.close();
  });

  test('the texts are matched by LIKE where it folds every casing of the word, else by a GLOB of the casings of each letter', () => {
    expect(caseBlindPattern('The')).toEqual({ like: '%the%' });
    expect(caseBlindPattern('a%b_c')).toEqual({ like: '%a\\%b\\_c%' });
    expect(caseBlindPattern('ປະຈຳ')).toEqual({ like: '%ປະຈຳ%' });
    expect(caseBlindPattern('über')).toEqual({ glob: '*[üÜ][bB][eE][rR]*' });
    expect(caseBlindPattern('ü*b')).toEqual({ glob: '*[üÜ][*][bB]*' });
    expect(caseBlindPattern('k')).toEqual({ glob: '*[kK\u212A]*' });
    expect(caseBlindPattern('i\u0307x')).toBeNull();
  });
});
