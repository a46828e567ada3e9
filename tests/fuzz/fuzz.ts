// A fuzz run: N cases (cases.ts) from a seed through the import pipeline (run-case.ts), with
// a tally by format and mutation and every finding with the seed that replays it and the
// folder that keeps its files (kept when there is a finding).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SegmentPool } from '../../src/main/text/segment-pool.ts';
import { fuzzCase } from './cases.ts';
import { baseProject, runCase, type Outcome } from './run-case.ts';

export interface FuzzSummary {
  cases: number;
  ok: number;
  refused: number;
  findings: { seed: number; format: string; mutation: string; detail: string }[];
  byMutation: Map<string, Record<Outcome['kind'], number>>;
}

export async function fuzz(cases: number, seed: number, onCase?: (n: number) => void): Promise<FuzzSummary> {
  // /dev/shm where there is one: thousands of tiny projects are created and synced (3x faster in memory).
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'mekong-fuzz-'));
  const pool = new SegmentPool({});
  const summary: FuzzSummary = { cases, ok: 0, refused: 0, findings: [], byMutation: new Map() };
  try {
    const base = await baseProject(dir, pool);
    for (let k = 0; k < cases; k++) {
      const c = fuzzCase(seed + k);
      const o = await runCase(c, base, dir, pool);
      const key = `${c.format} / ${c.mutation}`;
      const row = summary.byMutation.get(key) ?? { ok: 0, refused: 0, finding: 0 };
      row[o.kind]++;
      summary.byMutation.set(key, row);
      if (o.kind === 'ok') summary.ok++;
      else if (o.kind === 'refused') summary.refused++;
      else
        summary.findings.push({
          seed: c.seed,
          format: c.format,
          mutation: c.mutation,
          detail: `${o.detail} (files in ${join(dir, `c${c.seed}`)})`,
        });
      onCase?.(k + 1);
    }
  } finally {
    await pool.close();
    if (summary.findings.length === 0) rmSync(dir, { recursive: true, force: true });
  }
  return summary;
}
