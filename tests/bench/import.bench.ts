// `npm run bench -- import [--pairs N] [--pretok-pairs N] [--rounds N]`: import speed and memory.
// The 265 Lao–Thai embassy pairs (resources/sample) are cycled to 200,000 pairs (CSV)
// and imported with segmentation into a new project; the same pairs, pre-tokenized, are
// cycled to 1,000,000 pairs (Moses files) and imported with --pretokenized; and, in the
// same run, Intl.Segmenter alone on this thread over the same text gives the baseline.
// Each import runs in its own process (import-run.ts) so its peak RSS is its own.
// --rounds N (default 3) repeats the segmented import N times, each between two 5-second
// baselines, and takes its ratio against their mean: this machine's speed drifts by a
// quarter within minutes (one import, one baseline before it: 1.00x and 1.69x for the same
// code minutes apart), so a ratio is only meaningful against a baseline taken around it.
// The median of the rounds (the lower middle one for an even count) is the figure.
import { benchOptions, numberOption } from './bench-options.ts';
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { normalizeText } from '../../src/main/text/normalize.ts';
import { segment } from '../../src/main/text/segment.ts';
import { sampleCorpusPath } from '../../src/main/corpus/sample.ts';

interface RunResult {
  pairs: number;
  seconds: number;
  cpuSeconds: number;
  maxRssMb: number;
}

function samplePairs(): [string, string][] {
  const rows = parse(readFileSync(sampleCorpusPath()), { bom: true, columns: true }) as { lao_sent: string; thai_sent: string }[];
  return rows.map((r) => [normalizeText(r.lao_sent), normalizeText(r.thai_sent)]);
}

async function writeCycled(path: string, n: number, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(path);
  let chunk = '';
  for (let i = 0; i < n; i++) {
    chunk += line(i);
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((r) => out.on('close', () => r()));
}

function csvField(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

function segmenterBaseline(pairs: [string, string][], seconds = 5): { pairsPerSec: number } {
  let done = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    const [lo, th] = pairs[done % pairs.length];
    segment(lo, 'lo');
    segment(th, 'th');
    done++;
  }
  const s = (performance.now() - t0) / 1000;
  return { pairsPerSec: done / s };
}

function runImport(args: string[]): RunResult {
  const r = spawnSync(process.execPath, ['bin/tsx-run.js', 'tests/bench/import-run.ts', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`import run failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as RunResult;
}

export default async function main(args: string[]): Promise<void> {
  const o = benchOptions('import', args, {
    pairs: { type: 'string', default: '200000' },
    'pretok-pairs': { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '3' },
  });
  if (!o) return;
  const nSeg = numberOption('pairs', o.pairs)!;
  const nTok = numberOption('pretok-pairs', o['pretok-pairs'])!;
  const rounds = Math.max(1, numberOption('rounds', o.rounds)!);
  const dir = mkdtempSync(join(tmpdir(), 'mekong-bench-import-'));
  try {
    const pairs = samplePairs();
    const csv = join(dir, 'cycled.csv');
    await writeCycled(csv, nSeg + 1, (i) =>
      i === 0 ? 'lao_sent,thai_sent\n' : `${csvField(pairs[(i - 1) % pairs.length][0])},${csvField(pairs[(i - 1) % pairs.length][1])}\n`,
    );
    const tok = pairs.map(([lo, th]) => [segment(lo, 'lo'), segment(th, 'th')].map((ts) => ts.map((t) => t.text).join(' ')));
    await writeCycled(join(dir, 'tok.lo'), nTok, (i) => tok[i % tok.length][0] + '\n');
    await writeCycled(join(dir, 'tok.th'), nTok, (i) => tok[i % tok.length][1] + '\n');

    console.log(
      '| import | pairs | seconds | pairs/s | segmenter before, after (pairs/s) | ratio | cores busy | CPU per pair vs segmenter | peak RSS | target |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    const ratios: number[] = [];
    let before = segmenterBaseline(pairs).pairsPerSec;
    for (let round = 0; round < rounds; round++) {
      const seg = runImport([join(dir, `seg${round}.mekong`), csv, '--csv']);
      const after = segmenterBaseline(pairs).pairsPerSec;
      const segRate = seg.pairs / seg.seconds;
      ratios.push(segRate / ((before + after) / 2));
      console.log(
        `| segmented (CSV), round ${round + 1} | ${seg.pairs} | ${seg.seconds.toFixed(1)} | ${segRate.toFixed(0)} | ${before.toFixed(0)}, ${after.toFixed(0)} | ${ratios[round].toFixed(2)}x segmenter | ${(seg.cpuSeconds / seg.seconds).toFixed(2)} | ${((seg.cpuSeconds / seg.pairs) * ((before + after) / 2)).toFixed(2)}x | ${seg.maxRssMb.toFixed(0)} MB | ≥1.5x, <1 GB |`,
      );
      before = after;
    }
    const pre = runImport([join(dir, 'tok.mekong'), join(dir, 'tok.lo'), join(dir, 'tok.th')]);
    const preRate = pre.pairs / pre.seconds;
    console.log(
      `| pre-tokenized (Moses) | ${pre.pairs} | ${pre.seconds.toFixed(1)} | ${preRate.toFixed(0)} | — | — | ${(pre.cpuSeconds / pre.seconds).toFixed(2)} | — | ${pre.maxRssMb.toFixed(0)} MB | ≥100,000/s, <1 GB |`,
    );
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `Segmented import against Intl.Segmenter alone on one thread, median of ${rounds}: ${sorted[(rounds - 1) >> 1].toFixed(2)}x (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
