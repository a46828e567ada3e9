// JSONL reader and writer: the committed golden file reads and writes back byte for byte;
// a realistic Lao/Thai export (segmented tokens, gold + model alignments with scores, link
// tags, statuses, notes with quotes, newlines and emoji) survives export → import → export
// byte-identically; malformed lines are named with the field at fault.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDelimited } from '../../../src/main/corpus/delimited.ts';
import { readJsonl, writeJsonl } from '../../../src/main/corpus/jsonl.ts';
import { PairJson } from '../../../src/main/corpus/jsonl-schema.ts';
import type { PairRecord } from '../../../src/main/corpus/record.ts';
import type { Link, PairStatus, Token } from '../../../src/shared/domain.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { collect, expectInputError, FIXTURES, put, SHARED } from './helpers.ts';

const dir = tempDir('mekong-jsonl-');
const GOLDEN = join(FIXTURES, 'pairs.jsonl');

function segment(text: string, lang: string): Token[] {
  const seg = new Intl.Segmenter(lang, { granularity: 'word' });
  return [...seg.segment(text)]
    .filter((s) => s.isWordLike)
    .map((s) => ({ text: s.segment, start: s.index, end: s.index + s.segment.length }));
}

const NOTES = ['', 'ກວດແລ້ວ "ok"', 'line one\nline two\ttab \\ back', 'emoji 😀🇱🇦 and \u2028 separator', 'ผิด <b>&amp;</b>'];
const STATUSES: PairStatus[] = ['new', 'in-review', 'done', 'flagged'];

/** 40 embassy pairs with ICU tokens, a gold and a model alignment, statuses and notes. */
async function realistic(): Promise<PairRecord[]> {
  const csv = join(SHARED, 'thai-lao-embassy/vientiane-thaiembassy-sent.csv');
  const pairs = (await collect(readDelimited(csv, { header: true }))).slice(0, 40);
  return pairs.map((p, i) => {
    const srcTokens = segment(p.src, 'lo');
    const tgtTokens = segment(p.tgt, 'th');
    const diag = (k: number) => Math.floor((k * tgtTokens.length) / srcTokens.length);
    const gold: Link[] = srcTokens.map((_, k) => ({
      s: k,
      t: diag(k),
      kind: k % 5 ? 'sure' : 'possible',
      score: null,
      ...(k % 3 === 1 ? { tag: k % 2 ? 'function' : 'grammatically inferred' } : {}),
    }));
    const model: Link[] = srcTokens.map((_, k) => ({
      s: k,
      t: diag(k),
      kind: 'sure',
      score: ((k * 7919) % 1000) / 1000 + (k % 3 ? 0 : 1e-9),
    }));
    return {
      line: 0,
      src: p.src,
      tgt: p.tgt,
      srcTokens,
      tgtTokens,
      alignments: [
        { origin: 'gold', source: 'anna', links: gold },
        { origin: 'model', source: 'ibm2 run "3"', links: i % 2 ? model : [{ s: 0, t: 0, kind: 'sure', score: 0.1 + 0.2 }] },
      ],
      status: STATUSES[i % 4],
      split: i % 10 === 0 ? 'dev' : 'train',
      note: NOTES[i % NOTES.length],
    } satisfies PairRecord;
  });
}

describe('JSONL', () => {
  it('reads the golden file and writes it back byte for byte, keys in schema order', async () => {
    const recs = await collect(readJsonl(GOLDEN));
    expect(recs[0].srcTokens).toEqual([
      { text: 'ສະບາຍດີ', start: 0, end: 7 },
      { text: 'ໂລກ', start: 8, end: 11 },
    ]);
    expect(recs[2].srcTokens![0].text).toBe('Xin');
    expect(recs[2].alignments![0].links[1]).toEqual({ s: 1, t: 1, kind: 'possible', score: 1e-7 });
    const out = join(dir, 'golden-out.jsonl');
    await writeJsonl(recs, out);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(GOLDEN, 'utf8'));
    for (const line of readFileSync(out, 'utf8').trimEnd().split('\n')) {
      expect(JSON.stringify(PairJson.parse(JSON.parse(line)))).toBe(line);
    }
  });

  it('export → import → export is byte-identical on a realistic Lao–Thai file', async () => {
    const recs = await realistic();
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    await writeJsonl(recs, a);
    const back = await collect(readJsonl(a));
    expect(back.map((r) => ({ ...r, line: 0 }))).toEqual(recs);
    await writeJsonl(back, b);
    expect(readFileSync(b)).toEqual(readFileSync(a));
    expect(readFileSync(a, 'utf8').split('\n')).toHaveLength(41);
  });

  it('accepts bare strings and names the line and field of bad records', async () => {
    const f = put(dir, 'min.jsonl', '{"src":"ກ","tgt":"ก","id":7}\n\n{"src":"ຂ","tgt":"ข"}\n');
    expect(await collect(readJsonl(f))).toEqual([
      { line: 1, src: 'ກ', tgt: 'ก' },
      { line: 3, src: 'ຂ', tgt: 'ข' },
    ]);
    const cases: [string, string][] = [
      ['{"src":"a"}', 'field tgt: missing'],
      ['{"src":"a","tgt":{"tokens":[]}}', 'field tgt.text: missing'],
      ['{"src":"a","tgt":"b","status":"finished"}', 'field status: Invalid option: expected one of "new"|"in-review"|"done"|"flagged"'],
      [
        '{"src":{"text":"ab","tokens":[[0,1],[1]]},"tgt":"b"}',
        'field src.tokens.1: expected [start, end] or [start, end, "text"] with offsets ≥ 0',
      ],
      ['{"src":{"text":"ab","tokens":[[0,3]]},"tgt":"b"}', 'field src.tokens.0: offsets [0,3] out of range (text has 2 characters)'],
      [
        '{"src":"a","tgt":"b","alignments":[{"origin":"gold","source":"x","links":[[0,0,"sure",1.5]]}]}',
        'field alignments.0.links.0: expected [s, t, "sure"|"possible", score in [0, 1] or null] or the same with a tag (1–40 printable characters) fifth',
      ],
      [
        '{"src":"a","tgt":"b","alignments":[{"origin":"gold","source":"x","links":[[0,0,"sure",null,""]]}]}',
        'field alignments.0.links.0: expected [s, t, "sure"|"possible", score in [0, 1] or null] or the same with a tag (1–40 printable characters) fifth',
      ],
      [
        '{"src":{"text":"a","tokens":[[0,1]]},"tgt":{"text":"b c","tokens":[[0,1],[2,3]]},"alignments":[{"origin":"gold","source":"x","links":[[0,2,"sure",null]]}]}',
        'link 0-2: target index 2 out of range (sentence has 2 tokens)',
      ],
      ['{"src":{"text":"abc","tokens":[[0,0]]},"tgt":{"text":"x","tokens":[[0,1]]}}', 'field src.tokens.0: empty or reversed span [0,0]'],
      ['{"src":{"text":"abc","tokens":[[2,1]]},"tgt":"x"}', 'field src.tokens.0: empty or reversed span [2,1]'],
      [
        '{"src":{"text":"abc","tokens":[[0,2],[1,3]]},"tgt":"x"}',
        'field src.tokens.1: span [1,3] overlaps or precedes the previous token (ends at 2)',
      ],
      [
        '{"src":{"text":"ab c","tokens":[[3,4],[0,2]]},"tgt":"x"}',
        'field src.tokens.1: span [0,2] overlaps or precedes the previous token (ends at 4)',
      ],
      ['{"src":"x","tgt":{"text":"a  b","tokens":[[0,1],[1,3]]}}', 'field tgt.tokens.1: span [1,3] holds only whitespace'],
      [
        '{"src":{"text":"Xin chào","tokens":[[0,3,"xin"]]},"tgt":"x"}',
        'field src.tokens.0: token text "xin" differs from the text at [0,3] ("Xin"); tokens must be spans of the sentence',
      ],
      [
        '{"src":{"text":"a","tokens":[[0,1]]},"tgt":{"text":"b","tokens":[[0,1]]},"alignments":[{"origin":"gold","source":"x","links":[],"untranslated":{"src":[],"tgt":[1]}}]}',
        'untranslated tgt token 1 out of range (sentence has 1 token)',
      ],
      [
        '{"src":{"text":"a","tokens":[[0,1]]},"tgt":{"text":"b","tokens":[[0,1]]},"rejected":[[0,2,"anna"]]}',
        'rejected link 0-2 out of range (sentence has 1×1 tokens)',
      ],
      ['{"src":"a","tgt":"b","rejected":[[0,0]]}', 'field rejected.0: expected [s, t, "annotator"]'],
      ['{"src":"a\\ud800b","tgt":"x"}', 'field src.text: a lone surrogate (an escape like \\ud800 without its pair) is not valid text'],
      [
        '{"src":"a","tgt":"b","note":"\\udc00"}',
        'field note: a lone surrogate (an escape like \\ud800 without its pair) is not valid text',
      ],
      ['{"src":"a","tgt":""}', 'empty target side'],
      ['{"src":"a",', 'invalid JSON at column 12'],
      ['{"src":"a","tgt":"b"} x', 'invalid JSON at column 23'],
    ];
    for (const [i, [line, reason]] of cases.entries()) {
      const g = put(dir, `bad${i}.jsonl`, `{"src":"ok","tgt":"ok"}\n${line}\n`);
      await expectInputError(readJsonl(g), g, 2, reason);
    }
  });
});
