// Links files: Pharaoh (0/1-based, possible and scored links), TALP / NAACL-2003, joined
// to pair streams with attachLinks and checked with checkLinks — on hand-made files and on
// the std-gold-align gold standards (read in place: research licence, not copied).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFastAlign } from '../../../src/main/corpus/fastalign.ts';
import { attachLinks, checkLinks, type LinkedPair } from '../../../src/main/corpus/links.ts';
import { LinkSet, type Link } from '../../../src/shared/link-set.ts';
import { readPharaoh, writePharaoh } from '../../../src/main/corpus/pharaoh.ts';
import type { PairRecord } from '../../../src/main/corpus/record.ts';
import { readTalp, writeTalp } from '../../../src/main/corpus/talp.ts';
import { InputError } from '../../../src/main/errors.ts';
import type { IndexBase } from '../../../src/main/corpus/links.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { collect, expectInputError, put, SHARED } from './helpers.ts';

const dir = tempDir('mekong-links-');
const GOLD = join(SHARED, 'std-gold-align');
const words = (s: string) => s.trim().split(/\s+/).length;

async function* pairs(n: number): AsyncGenerator<PairRecord> {
  for (let i = 1; i <= n; i++) yield { line: i, src: 'a b c', tgt: 'x y z' };
}

describe('Pharaoh', () => {
  it('reads 0-based sure, possible (? and p) and scored links, merging repeats', async () => {
    const f = put(dir, 'a.align', '0-0 1?2 3p4:0.92\n\n2-1:1 2p1 5-6:1e-3\n');
    expect(await collect(readPharaoh(f))).toEqual([
      {
        line: 1,
        links: [
          { s: 0, t: 0, kind: 'sure', score: null },
          { s: 1, t: 2, kind: 'possible', score: null },
          { s: 3, t: 4, kind: 'possible', score: 0.92 },
        ],
      },
      { line: 2, links: [] },
      {
        line: 3,
        links: [
          { s: 2, t: 1, kind: 'sure', score: 1 },
          { s: 5, t: 6, kind: 'sure', score: 0.001 },
        ],
      },
    ]);
  });

  it('reads 1-based files and names bad links', async () => {
    const f = put(dir, 'b.align', '1-1 2p3\n');
    expect((await collect(readPharaoh(f, { base: 1 })))[0].links).toEqual([
      { s: 0, t: 0, kind: 'sure', score: null },
      { s: 1, t: 2, kind: 'possible', score: null },
    ]);
    const z = put(dir, 'z.align', '1-1\n0-1\n');
    await expectInputError(readPharaoh(z, { base: 1 }), z, 2, 'bad link "0-1": index 0 in a 1-based links file');
    const x = put(dir, 'x.align', '0-0 1x2\n');
    await expectInputError(readPharaoh(x), x, 1, 'bad link "1x2": expected i-j, i?j or ipj, optionally with :score');
    const s = put(dir, 's.align', '0-0:1.5\n');
    await expectInputError(readPharaoh(s), s, 1, 'bad link "0-0:1.5": score above 1');
  });

  it('writes 0/1-based, ? or p, with or without scores; one alignment per record, never a silent pick', async () => {
    const gold: Link[] = [
      { s: 1, t: 1, kind: 'possible', score: null },
      { s: 0, t: 0, kind: 'sure', score: null },
    ];
    const model: Link[] = [
      { s: 1, t: 1, kind: 'sure', score: 0.25 },
      { s: 0, t: 1, kind: 'possible', score: 0.5 },
    ];
    const rec = (links: Link[]): PairRecord => ({
      line: 0,
      src: 'a b',
      tgt: 'x y',
      alignments: [{ origin: 'gold', source: 'anna', links }],
    });
    const out = (name: string) => readFileSync(join(dir, name), 'utf8');
    await writePharaoh([rec(gold), { line: 0, src: 'c', tgt: 'z' }], join(dir, 'w0.align'));
    expect(out('w0.align')).toBe('0-0 1?1\n\n');
    await writePharaoh([rec(LinkSet.union([gold, model]).links())], join(dir, 'w1.align'), {
      base: 1,
      possible: 'p',
      scores: true,
    });
    expect(out('w1.align')).toBe('1-1 1p2:0.5 2-2:0.25\n');
    const back = await collect(readPharaoh(join(dir, 'w1.align'), { base: 1 }));
    expect(back[0].links).toContainEqual({ s: 1, t: 1, kind: 'sure', score: 0.25 });
    const two: PairRecord = {
      ...rec(gold),
      alignments: [
        { origin: 'gold', source: 'anna', links: gold },
        { origin: 'model', source: 'm', links: model },
      ],
    };
    await expect(writePharaoh([two], join(dir, 'w2.align'))).rejects.toThrow(/one alignment per line; record has 2/);
  });
});

describe('TALP / NAACL-2003', () => {
  it('reads grouped lines, dropping NULL links and filling skipped sentences', async () => {
    const f = put(dir, 'a.wa', '1 1 1 S\n1 2 0 S\n1 2 3 P 0.5\n3 1 2\n3 2 2 P\n');
    expect(await collect(readTalp(f))).toEqual([
      {
        line: 1,
        links: [
          { s: 0, t: 0, kind: 'sure', score: null },
          { s: 1, t: 2, kind: 'possible', score: 0.5 },
        ],
      },
      { line: 4, links: [] },
      {
        line: 4,
        links: [
          { s: 0, t: 1, kind: 'sure', score: null },
          { s: 1, t: 1, kind: 'possible', score: null },
        ],
      },
    ]);
    const bad = put(dir, 'b.wa', '2 1 1 S\n1 1 1 S\n');
    await expectInputError(readTalp(bad), bad, 2, 'sentence 1 after sentence 2: lines must be grouped by sentence in order');
    const junk = put(dir, 'c.wa', '1 1 1 S\n1 1 X\n');
    await expectInputError(readTalp(junk), junk, 2, 'bad TALP line "1 1 X": expected "sentno srcpos tgtpos [S|P] [confidence]"');
  });

  it('round-trips the de-en gold standard through TALP', async () => {
    const groups = await collect(readPharaoh(join(GOLD, 'deen.talp'), { base: 1 }));
    const recs = groups.map((g): PairRecord => ({
      line: g.line,
      src: '',
      tgt: '',
      alignments: [{ origin: 'gold', source: 'g', links: g.links }],
    }));
    const f = join(dir, 'deen.wa');
    await writeTalp(recs, f);
    expect(readFileSync(f, 'utf8').split('\n', 2)[0]).toBe('1 1 1 S');
    const back = await collect(readTalp(f));
    const key = (ls: { s: number; t: number; kind: string }[]) => ls.map((l) => `${l.s}-${l.t}${l.kind}`).sort();
    expect(back.length).toBeLessThanOrEqual(groups.length);
    groups.forEach((g, i) => expect(key(back[i]?.links ?? [])).toEqual(key(g.links)));
  });
});

describe('attachLinks and checkLinks', () => {
  it('checks the std-gold-align sets against whitespace tokens: all in range but 6 ja-en links', async () => {
    const sets: [string, string, IndexBase, number, number][] = [
      ['deen', 'de-en', 1, 9613, 921],
      ['enfr', 'en-fr', 1, 4038, 13400],
      ['roen', 'ro-en', 1, 6198, 0],
      ['chen', 'ch-en', 1, 11416, 0],
      ['jaen', 'ja-en', 0, 13562, 0],
    ];
    for (const [name, pair, base, sure, possible] of sets) {
      const file = join(GOLD, `${name}.talp`);
      const linked = await collect(attachLinks(readFastAlign(join(GOLD, `test.${pair}`)), readPharaoh(file, { base }), { file }));
      const links = linked.flatMap((r) => r.alignments![0].links);
      expect([links.filter((l) => l.kind === 'sure').length, links.filter((l) => l.kind === 'possible').length]).toEqual([sure, possible]);
      const errors = linked.flatMap((r: LinkedPair) => {
        try {
          checkLinks(r.alignments![0].links, words(r.src), words(r.tgt), file, r.linksLine, base);
          return [];
        } catch (e) {
          return [e as InputError];
        }
      });
      if (name !== 'jaen') expect(errors).toEqual([]);
      else {
        expect(errors.length).toBe(4);
        expect(errors[0].message).toBe(`${file}:351: link 17-24: source index 17 out of range (sentence has 17 tokens)`);
      }
    }
  });

  it('names a links file that ends early or runs long, unless open-ended', async () => {
    const f = put(dir, 'short.align', '0-0\n1-1\n');
    await expectInputError(
      attachLinks(pairs(3), readPharaoh(f), { file: f }),
      f,
      2,
      'links file ends at line 2 but the pairs continue (pair at line 3)',
    );
    await expectInputError(attachLinks(pairs(1), readPharaoh(f), { file: f }), f, 2, 'more link lines than sentence pairs');
    const t = put(dir, 'open.wa', '2 1 1\n');
    const linked = await collect(attachLinks(pairs(3), readTalp(t), { file: t, source: 'gold.wa', openEnded: true }));
    expect(linked.map((r) => r.alignments![0].links.length)).toEqual([0, 1, 0]);
    expect(linked[1].alignments![0]).toMatchObject({ origin: 'import', source: 'gold.wa' });
  });

  it('phrases the range error as the file has it', () => {
    const links = [
      { s: 3, t: 4, kind: 'sure' as const, score: null },
      { s: 11, t: 39, kind: 'sure' as const, score: null },
    ];
    expect(() => checkLinks(links, 20, 31, 'g.align', 7, 1)).toThrow(
      new InputError('g.align', 7, 'link 12-40: target index 40 out of range (sentence has 31 tokens)'),
    );
    expect(() => checkLinks(links, 11, 40, 'g.align', 7)).toThrow(
      'g.align:7: link 11-39: source index 11 out of range (sentence has 11 tokens)',
    );
  });
});
