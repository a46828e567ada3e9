// The app-scale bench's harness on a small project (3,000 pairs of uniq39k, served by a real
// `mekong serve`): every step answers through the API — the Align job with edits going on,
// the queue, the concordance of a frequent and a rare word pair, the Link all, the JSONL
// export — and the table states each figure against its budget. Skipped where the bench
// corpora (../shared/data) are absent.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { appScale, reportTable } from '../../bench/app-scale.bench.ts';
import { CORPORA } from '../../bench/bench-corpora.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-app-scale-');

test.skipIf(!existsSync(CORPORA))(
  '3,000 pairs: every step runs through the API and the table judges each figure',
  async () => {
    const mekong = join(import.meta.dirname, '../../../bin/mekong.js');
    const r = await appScale({ pairs: 3000, editsPerSecond: 20, method: 'ibm1', mekong, dir });
    expect(r.alignMessage).toMatch(/^aligned 3000 pairs with /);
    expect(r.edits.edits).toBeGreaterThan(0);
    expect(r.edits.failed).toBe(0);
    expect(r.queueTotal).toBe(3000);
    // "the" / "die": 1,215 of the first 3,000 pairs hold both as words; the rare pair is in line 1 alone
    const [frequent, rare] = r.concordance;
    expect(frequent.total).toBe(1215);
    expect(rare.total).toBe(1);
    expect(r.bulk.changes).toBeLessThanOrEqual(1);
    expect(r.exportSeconds).toBeGreaterThan(0);
    expect(r.serverPeakRssMb).toBeGreaterThan(30);
    const table = reportTable(r, r).join('\n');
    expect(table).toMatch(/Review queue, first page \(3000 pairs\)\s+\d+ ms\s+< 1000 ms\s+(met|NOT MET)/);
    expect(table).toMatch(/export JSONL, every pair .* pairs\/s\s+≥ 50,000 pairs\/s\s+(met|NOT MET)/);
  },
  300_000,
);
