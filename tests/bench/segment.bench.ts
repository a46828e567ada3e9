// `npm run bench -- segment [--tokens 5000,20000,40000,110000] [--whole-max-seconds 60]`:
// segmentation time of one long Lao line. The embassy sample's Lao sentences (resources/sample) are
// joined into one document (by spaces; without a separator; and with every space removed,
// so ICU must be cut inside runs of Lao letters) and cycled to the given token counts;
// each is segmented as one text (segmentOffsets, as the import does), then without the
// piecewise ICU pass (maxPiece: Infinity) unless a quadratic guess from the previous size
// says it would take over --whole-max-seconds (default 60). It also
// prints how many tokens of the whole sample document differ between the two passes.
import { benchOptions, numberList, numberOption } from './bench-options.ts';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { sampleCorpusPath } from '../../src/main/corpus/sample.ts';
import { normalizeText } from '../../src/main/text/normalize.ts';
import { segmentOffsets } from '../../src/main/text/segment.ts';

function laoDocument(separator: string, dropSpaces: boolean): string {
  const rows = parse(readFileSync(sampleCorpusPath(), 'utf8'), { bom: true, columns: true }) as { lao_sent: string }[];
  const doc = rows.map((r) => normalizeText(r.lao_sent)).join(separator);
  return dropSpaces ? doc.replace(/\s+/g, '') : doc;
}

/** A prefix of `doc` cycled (joined by `separator`) holding about `tokens` tokens. */
function ofTokens(doc: string, separator: string, tokens: number): string {
  const perUnit = segmentOffsets(doc, 'lo').length / 2 / doc.length;
  const units = Math.round(tokens / perUnit);
  let text = doc;
  while (text.length < units) text += separator + doc;
  return text.slice(0, units);
}

function timed(f: () => Uint32Array): [number, Uint32Array] {
  const t0 = performance.now();
  const r = f();
  return [(performance.now() - t0) / 1000, r];
}

/** Spans in one offsets array and not in the other, counted both ways. */
function spanDifference(a: Uint32Array, b: Uint32Array): number {
  const key = (o: Uint32Array) => new Set(Array.from({ length: o.length / 2 }, (_, i) => `${o[2 * i]},${o[2 * i + 1]}`));
  const [x, y] = [key(a), key(b)];
  let n = 0;
  for (const k of x) if (!y.has(k)) n++;
  for (const k of y) if (!x.has(k)) n++;
  return n;
}

export default async function main(args: string[]): Promise<void> {
  const o = benchOptions('segment', args, {
    tokens: { type: 'string', default: '5000,20000,40000,110000' },
    'whole-max-seconds': { type: 'string', default: '60' },
  });
  if (!o) return;
  const counts = numberList('tokens', o.tokens);
  const wholeMax = numberOption('whole-max-seconds', o['whole-max-seconds'])!;
  console.log('| Lao line | tokens | UTF-16 units | piecewise s | whole-text s |');
  console.log('|---|---|---|---|---|');
  const variants: [string, string, boolean][] = [
    ['joined by spaces', ' ', false],
    ['joined without spaces', '', false],
    ['all spaces removed', '', true],
  ];
  for (const [name, separator, dropSpaces] of variants) {
    const doc = laoDocument(separator, dropSpaces);
    let last: [tokens: number, seconds: number] | null = null;
    for (const n of counts) {
      const text = ofTokens(doc, separator, n);
      const [pieceS, pieces] = timed(() => segmentOffsets(text, 'lo'));
      let whole = 'skipped';
      if (last === null || last[1] * (n / last[0]) ** 2 < wholeMax) {
        const [s] = timed(() => segmentOffsets(text, 'lo', { maxPiece: Infinity }));
        whole = s.toFixed(2);
        last = [n, s];
      }
      console.log(`| ${name} | ${pieces.length / 2} | ${text.length} | ${pieceS.toFixed(2)} | ${whole} |`);
    }
    const [, a] = timed(() => segmentOffsets(doc, 'lo'));
    const [, b] = timed(() => segmentOffsets(doc, 'lo', { maxPiece: Infinity }));
    console.log(`sample document ${name}: ${b.length / 2} tokens whole, ${a.length / 2} piecewise, ${spanDifference(a, b)} spans differ`);
  }
}
