// `npm run bench -- team [--clients 5,20,50] [--seconds 300] [--pairs 100000] [--think 250]
// [--align agree] [--seed 1]`: one team server under N simulated annotators at a time, for each N
// of --clients, on one project of P pairs (team-load.ts: each annotator logged in with its own
// account, toggling links, undoing and moving through its own pairs while the manager runs an
// Align job). Prints per N: edit → acknowledged p50 / p99 / max, pair moves p50 / p99, edits per
// second, errors, acknowledged edits lost (read back from the database) and the server's peak
// resident memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchOptions, numberList, numberOption } from './bench-options.ts';
import { teamLoad, teamProject, type TeamLoadReport } from './team-load.ts';

function line(r: TeamLoadReport): string {
  const errors = Object.values(r.errors).reduce((a, b) => a + b, 0);
  const align = r.align
    ? `align.start answered in ${r.align.startAnswerMs.toFixed(0)} ms, ${r.align.outcome === 'running' ? 'still running' : r.align.outcome} at ${r.align.seconds.toFixed(0)} s`
    : 'no align';
  return (
    `${String(r.clients).padStart(3)} clients: ${r.edits} edits (${r.undos} undos, ${(r.edits / r.seconds).toFixed(1)}/s), ` +
    `edit→ack p50 ${r.editP50.toFixed(0)} ms p99 ${r.editP99.toFixed(0)} ms max ${r.editMax.toFixed(0)} ms; ` +
    `moves ${r.moves} p50 ${r.moveP50.toFixed(0)} ms p99 ${r.moveP99.toFixed(0)} ms; errors ${errors}, resent ${r.retries}; ` +
    `lost ${r.lost} of ${r.pairsChecked} pairs checked; server peak RSS ${r.serverPeakRssMb.toFixed(0)} MB; ${align}`
  );
}

export default async function main(args: string[]): Promise<void> {
  const o = benchOptions('team', args, {
    clients: { type: 'string', default: '5,20,50' },
    seconds: { type: 'string', default: '300' },
    pairs: { type: 'string', default: '100000' },
    think: { type: 'string', default: '250' },
    align: { type: 'string', default: 'agree' },
    seed: { type: 'string', default: '1' },
  });
  if (!o) return;
  const clients = numberList('clients', o.clients);
  const pairs = numberOption('pairs', o.pairs)!;
  const dir = mkdtempSync(join(tmpdir(), 'mekong-team-bench-'));
  try {
    const t0 = performance.now();
    const project = await teamProject(dir, pairs, Math.max(...clients));
    console.log(`${pairs} pairs and ${Math.max(...clients)} annotator accounts ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const n of clients) {
      const report = await teamLoad({
        project,
        clients: n,
        seconds: numberOption('seconds', o.seconds)!,
        seed: numberOption('seed', o.seed)!,
        alignMethod: o.align!,
        thinkMs: numberOption('think', o.think)!,
      });
      console.log(line(report));
      for (const [why, count] of Object.entries(report.errors)) console.log(`     ${count}× ${why}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
