// Streaming: a 1,000,000-line Moses pair generated on disk is read through with bounded
// heap, and every reader's throughput is printed (pairs/s) on 50,000-pair files written
// by our own writers. Speed is reported, not asserted (docs/ARCHITECTURE.md: tests assert behaviour).
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readerFor, writerFor, type PairFormat } from '../../../src/main/corpus/formats.ts';
import { readMoses, writeMoses } from '../../../src/main/corpus/moses.ts';
import type { PairRecord } from '../../../src/main/corpus/record.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-stream-');

// A full collection before measuring the heap (vitest does not start Node with --expose-gc).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** n synthetic pre-tokenized Lao–Thai pairs with tokens and a scored model alignment. */
function* synthetic(n: number, withTokens = false): Generator<PairRecord> {
  for (let i = 0; i < n; i++) {
    const src = `ສະບາຍດີ ໂລກ ປະເທດ ລາວ ${i}`;
    const tgt = `สวัสดี โลก ประเทศ ไทย ${i}`;
    if (!withTokens) {
      yield { line: 0, src, tgt };
      continue;
    }
    const toks = (s: string) => {
      let at = 0;
      return s.split(' ').map((w) => ({ text: w, start: (at += w.length + 1) - w.length - 1, end: at - 1 }));
    };
    const links = [0, 1, 2, 3, 4].map((k) => ({ s: k, t: k, kind: 'sure' as const, score: (k + 1) / 8 }));
    yield {
      line: 0,
      src,
      tgt,
      srcTokens: toks(src),
      tgtTokens: toks(tgt),
      alignments: [{ origin: 'model', source: 'm1', links }],
      status: 'new',
    };
  }
}

const cpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Reads `run` through; prints pairs per wall second and per CPU second (the machine is shared). */
async function timed(label: string, run: () => AsyncIterable<PairRecord>, watch?: (rec: PairRecord, n: number) => void): Promise<number> {
  const [t, c] = [performance.now(), cpuSeconds()];
  let n = 0;
  for await (const rec of run()) {
    n++;
    watch?.(rec, n);
  }
  const [wall, cpu] = [(performance.now() - t) / 1000, cpuSeconds() - c];
  const rate = (s: number) => Math.round(n / s).toLocaleString('en');
  console.log(`${label.padEnd(10)} ${n} pairs: ${rate(wall)} pairs/s wall, ${rate(cpu)} pairs/s CPU`);
  return n;
}

describe('streaming', () => {
  it('reads a 1,000,000-line Moses pair with bounded heap', async () => {
    const [lo, th] = [join(dir, 'big.lo'), join(dir, 'big.th')];
    await writeMoses(synthetic(1_000_000), lo, th);
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    let last: PairRecord | undefined;
    const watch = (rec: PairRecord, n: number) => {
      if (n % 50_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      last = rec;
    };
    expect(await timed('moses 1M', () => readMoses(lo, th), watch)).toBe(1_000_000);
    console.log(`moses 1M: peak heap +${(peak / 1e6).toFixed(0)} MB`);
    expect(last).toEqual({ line: 1_000_000, src: 'ສະບາຍດີ ໂລກ ປະເທດ ລາວ 999999', tgt: 'สวัสดี โลก ประเทศ ไทย 999999' });
    // Holding the pairs would take ~300 MB of heap; streaming stays near the 1 MB chunk size.
    expect(peak).toBeLessThan(120e6);
  });

  it('prints the throughput of every pair reader', async () => {
    const N = 50_000;
    const formats: [PairFormat, string[], boolean][] = [
      ['tsv', ['t.tsv'], false],
      ['csv', ['t.csv'], false],
      ['fastalign', ['t.txt'], false],
      ['jsonl', ['t.jsonl'], true],
      ['tmx', ['t.tmx'], false],
      ['moses', ['t.lo', 't.th'], false],
    ];
    for (const [format, names, tokens] of formats) {
      const files = names.map((f) => join(dir, f));
      await writerFor(format)(synthetic(N, tokens), files, { srcLang: 'lo', tgtLang: 'th' });
      expect(await timed(format, () => readerFor(format)(files, { tgtLang: 'th' }))).toBe(N);
    }
  });
});
