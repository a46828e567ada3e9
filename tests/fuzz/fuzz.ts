// A fuzz run: N cases (cases.ts) from a seed, each through the `mekong` CLI as a user runs it
// (mode 'cli', `jobs` cases at a time) or through the import pipeline in this process (mode
// 'in-process', one at a time: the unit tests' fixed slice), judged by run-case.ts; with a
// tally by format and mutation (and the peak memory of the CLI's imports) and every finding
// with the seed that replays it and the folder that keeps its files (kept when there is a
// finding).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SegmentPool } from '../../src/main/text/segment-pool.ts';
import { fuzzCase } from './cases.ts';
import { baseProject, cliBase, runCase, runCliCase, type Outcome } from './run-case.ts';

export type FuzzMode = 'cli' | 'in-process';

export interface FuzzOptions {
  mode: FuzzMode;
  /** CLI mode: how many cases run at once. */
  jobs?: number;
  onCase?: (n: number) => void;
}

/** One kind of case's outcomes, and the largest peak memory (KiB) of its CLI imports. */
export type Tally = Record<Outcome['kind'], number> & { peakKb: number | null };

export interface FuzzSummary {
  cases: number;
  ok: number;
  refused: number;
  hangs: number;
  findings: { seed: number; format: string; mutation: string; detail: string }[];
  /** By `format / mutation`. */
  byKind: Map<string, Tally>;
  /** The largest peak memory (KiB) of any CLI import, or null when none was measured. */
  peakKb: number | null;
  seconds: number;
}

const larger = (a: number | null, b: number | undefined) => (b === undefined ? a : Math.max(a ?? 0, b));

export async function fuzz(cases: number, seed: number, options: FuzzOptions): Promise<FuzzSummary> {
  // /dev/shm where there is one: thousands of tiny projects are created and synced (3x faster in memory).
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'mekong-fuzz-'));
  const pool = new SegmentPool({});
  const summary: FuzzSummary = { cases, ok: 0, refused: 0, hangs: 0, findings: [], byKind: new Map(), peakKb: null, seconds: 0 };
  const t0 = Date.now();
  let done = 0;
  const tally = (seed: number, o: Outcome) => {
    const c = fuzzCase(seed);
    const key = `${c.format} / ${c.mutation}`;
    const row = summary.byKind.get(key) ?? { ok: 0, refused: 0, finding: 0, hang: 0, peakKb: null };
    row[o.kind]++;
    row.peakKb = larger(row.peakKb, o.peakKb);
    summary.peakKb = larger(summary.peakKb, o.peakKb);
    summary.byKind.set(key, row);
    if (o.kind === 'ok') summary.ok++;
    else if (o.kind === 'refused') summary.refused++;
    else {
      if (o.kind === 'hang') summary.hangs++;
      summary.findings.push({
        seed: c.seed,
        format: c.format,
        mutation: c.mutation,
        detail: `${o.kind === 'hang' ? 'hang: ' : ''}${o.detail} (files in ${join(dir, `c${c.seed}`)})`,
      });
    }
    options.onCase?.(++done);
  };
  try {
    const base = await baseProject(dir, pool);
    if (options.mode === 'in-process') {
      for (let k = 0; k < cases; k++) tally(seed + k, await runCase(fuzzCase(seed + k), base, dir, pool));
    } else {
      const cli = cliBase(base, dir);
      let next = 0;
      const worker = async () => {
        while (next < cases) {
          const k = next++;
          tally(seed + k, await runCliCase(fuzzCase(seed + k), cli, dir));
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, options.jobs ?? 2) }, worker));
    }
  } finally {
    await pool.close();
    if (summary.findings.length === 0) rmSync(dir, { recursive: true, force: true });
  }
  summary.seconds = (Date.now() - t0) / 1000;
  return summary;
}
