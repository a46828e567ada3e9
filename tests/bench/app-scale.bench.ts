// `npm run bench -- app-scale [--pairs 100000,1000000] [--edits 10] [--method M] [--mekong bin/mekong.js]`:
// the app on a large project (issue 41 item 3). For each size, a project of uniq39k cycled to
// P pairs (bench-corpora.ts, the align bench's generator, less the one pair with an empty
// side; English–German, imported
// pretokenized from Moses files by `mekong import`) is served by `mekong serve` as the app
// serves it, and this process works it through the API the page calls, in the order a
// linguist would: the Align job (default method) timed from align.start to its job.done
// event, while the editor saves gold edits (editor.setGold, --edits a second, each timed to
// its committed answer), and the editor's edits for 5 s after it; the project's info as the page reads it after a job; the Review
// queue's first page (queue.list, 50 pairs, by uncertainty of the new alignment); the
// lexicon's concordance of a frequent word pair (the / die) and a rare one
// (prerogative / gesetzgebungsrecht: one line of uniq39k, so P / 38,999 pairs); the bulk fix
// the Lexicon page's "Link all" applies (lexicon.bulk add on the rare pair: preview, then
// apply); and the JSONL export of every pair (export.start to job.done). The server's peak
// resident memory (VmHWM from /proc, its worker threads included) is sampled throughout.
// Prints one table per size, each figure against its budget, and with two sizes or more the
// Align time of each against the first size's (budget: ≤ 10× the 100k time at 1M).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AlignmentInfo, ProjectInfo } from '../../src/shared/api.ts';
import { DEFAULT_METHOD } from '../../src/shared/methods.ts';
import { benchOptions, numberList, numberOption } from './bench-options.ts';
import { cycledLines } from './bench-corpora.ts';
import { callApi, exited, GoldEdits, JobEvents, peakRssMb, runMekong, serveProject } from './served-project.ts';

const ROOT = join(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The word pairs whose concordance is read: one in about a sixth of the pairs, one in a single line of uniq39k. */
export const FREQUENT = { src: 'the', tgt: 'die' };
export const RARE = { src: 'prerogative', tgt: 'gesetzgebungsrecht' };
/** The Review queue's page, as the page asks for it. */
const QUEUE_PAGE = 50;
/** How long the editor goes on editing after the Align job. */
const EDITING_AFTER_MS = 5000;
/** The concordance's page (lexicon.occurrences' limit), as the Lexicon page asks for it. */
const CONCORDANCE_PAGE = 200;

/** Issue 41 item 3's budgets; Align's is time linear in the pairs (≤ 10× the 100k time at 1M). */
export const BUDGETS = { editP99Ms: 50, queueMs: 1000, concordanceMs: 1000, exportPairsPerS: 50_000 } as const;

type EditSummary = ReturnType<GoldEdits['summary']>;

export interface AppScaleReport {
  pairs: number;
  importSeconds: number;
  alignSeconds: number;
  alignMessage: string;
  /** editor.setGold while the Align job ran, and for EDITING_AFTER_MS after it */
  edits: EditSummary;
  editsAfter: EditSummary;
  infoMs: number;
  queueMs: number;
  queueTotal: number;
  concordance: { words: string; ms: number; total: number }[];
  bulk: { previewMs: number; applyMs: number; changes: number };
  exportSeconds: number;
  serverPeakRssMb: number;
}

/** Milliseconds `work` took, and its value. */
async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await work();
  return [performance.now() - t0, value];
}

/** One size's run, as the header says, in `dir`. */
export async function appScale(o: {
  pairs: number;
  editsPerSecond: number;
  method: string;
  mekong: string;
  dir: string;
  /** Told each step's figure as soon as it is measured (a long run's figures survive its interruption). */
  log?: (line: string) => void;
}): Promise<AppScaleReport> {
  const log = o.log ?? (() => undefined);
  const { pairs, mekong, dir } = o;
  const project = join(dir, `p${pairs}.mekong`);
  const [en, de] = [join(dir, 'corpus.en'), join(dir, 'corpus.de')];
  writeFileSync(en, cycledLines('en', pairs, true).join('\n') + '\n');
  writeFileSync(de, cycledLines('de', pairs, true).join('\n') + '\n');
  runMekong(mekong, 'project', 'create', project, '--src-lang', 'en', '--tgt-lang', 'de');
  const [importMs] = await timed(async () =>
    runMekong(mekong, 'import', project, en, '--tgt-file', de, '--format', 'moses', '--pretokenized', '--no-learn-words'),
  );
  rmSync(en);
  rmSync(de);
  log(`imported in ${(importMs / 1000).toFixed(1)} s`);

  const server = await serveProject(mekong, project);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRssMb(server.proc.pid!))), 500);
  const events = await JobEvents.open(server);
  const call = <T>(channel: string, input: unknown) => callApi<T>(server, channel, input);
  try {
    // the Align job, with the editor's edits going on meanwhile
    const edits = new GoldEdits(server, pairs, 1000 / o.editsPerSecond);
    await sleep(1000);
    edits.recording = true;
    const [alignMs, aligned] = await timed(async () => {
      const { jobId } = await call<{ jobId: string }>('align.start', { method: o.method });
      return events.done(jobId);
    });
    edits.recording = false;
    await edits.stop();
    log(`Align: ${(alignMs / 1000).toFixed(1)} s, ${aligned.message}; edits during it ${JSON.stringify(edits.summary())}`);
    // and after it, with the new alignment in every pair the editor opens
    const editsAfter = new GoldEdits(server, pairs, 1000 / o.editsPerSecond);
    editsAfter.recording = true;
    await sleep(EDITING_AFTER_MS);
    await editsAfter.stop();

    const [infoMs, info] = await timed(() => call<ProjectInfo>('project.info', {}));
    const model = info.alignments.filter((a: AlignmentInfo) => a.origin === 'model').at(-1);
    if (!model) throw new Error('the Align job left no model alignment');
    log(`edits after it ${JSON.stringify(editsAfter.summary())}; project.info ${infoMs.toFixed(0)} ms`);
    const [queueMs, queue] = await timed(() =>
      call<{ total: number }>('queue.list', { alignmentId: model.id, offset: 0, limit: QUEUE_PAGE }),
    );
    log(`queue first page: ${queueMs.toFixed(0)} ms`);
    const concordance: AppScaleReport['concordance'] = [];
    for (const w of [FREQUENT, RARE]) {
      const [ms, r] = await timed(() => call<{ total: number }>('lexicon.occurrences', { ...w, limit: CONCORDANCE_PAGE }));
      concordance.push({ words: `${w.src} / ${w.tgt}`, ms, total: r.total });
      log(`concordance ${w.src} / ${w.tgt}: ${ms.toFixed(0)} ms, ${r.total} pairs`);
    }
    const [previewMs] = await timed(() => call('lexicon.bulk', { ...RARE, action: 'add', apply: false }));
    const [applyMs, applied] = await timed(() => call<{ changes: unknown[] }>('lexicon.bulk', { ...RARE, action: 'add', apply: true }));
    log(`Link all: preview ${previewMs.toFixed(0)} ms, apply ${applyMs.toFixed(0)} ms (${applied.changes.length} pairs)`);
    const [exportMs] = await timed(async () => {
      const { jobId } = await call<{ jobId: string }>('export.start', { file: join(dir, 'all.jsonl'), format: 'jsonl' });
      return events.done(jobId);
    });
    peak = Math.max(peak, peakRssMb(server.proc.pid!));
    log(`export: ${(exportMs / 1000).toFixed(1)} s; server peak RSS ${peak.toFixed(0)} MB`);
    return {
      pairs,
      importSeconds: importMs / 1000,
      alignSeconds: alignMs / 1000,
      alignMessage: aligned.message,
      edits: edits.summary(),
      editsAfter: editsAfter.summary(),
      infoMs,
      queueMs,
      queueTotal: queue.total,
      concordance,
      bulk: { previewMs, applyMs, changes: applied.changes.length },
      exportSeconds: exportMs / 1000,
      serverPeakRssMb: peak,
    };
  } finally {
    clearInterval(sampler);
    events.close();
    server.proc.kill('SIGTERM');
    await exited(server.proc);
    rmSync(project, { force: true });
    rmSync(join(dir, 'all.jsonl'), { force: true });
  }
}

const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');

/** The report's table: each figure, its budget and whether it is met (`first`: the first size's report, for the Align ratio). */
export function reportTable(r: AppScaleReport, first: AppScaleReport | null): string[] {
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const rows: [string, string, string, string][] = [];
  const ratio = first && first !== r ? r.alignSeconds / first.alignSeconds : null;
  const sizeRatio = first ? r.pairs / first.pairs : 1;
  rows.push([
    `Align (${r.alignMessage.replace(/^aligned \d+ pairs with /, '')})`,
    `${r.alignSeconds.toFixed(1)} s` + (ratio === null ? '' : ` = ${ratio.toFixed(2)}x the ${first!.pairs.toLocaleString('en')}-pair time`),
    ratio === null ? '(the base of the ratio)' : `≤ ${sizeRatio}x`,
    ratio === null ? '' : verdict(ratio <= sizeRatio),
  ]);
  rows.push([
    `edit → committed during Align (${r.edits.edits} edits, ${r.edits.failed} failed)`,
    `p50 ${ms(r.edits.p50)}, p99 ${ms(r.edits.p99)}, max ${ms(r.edits.max)}`,
    `p99 < ${BUDGETS.editP99Ms} ms, none failed`,
    verdict(r.edits.p99 < BUDGETS.editP99Ms && r.edits.failed === 0),
  ]);
  rows.push([
    `edit → committed after Align (${r.editsAfter.edits} edits, ${r.editsAfter.failed} failed)`,
    `p50 ${ms(r.editsAfter.p50)}, p99 ${ms(r.editsAfter.p99)}, max ${ms(r.editsAfter.max)}`,
    `p99 < ${BUDGETS.editP99Ms} ms, none failed`,
    verdict(r.editsAfter.p99 < BUDGETS.editP99Ms && r.editsAfter.failed === 0),
  ]);
  rows.push(['project.info after the job', ms(r.infoMs), `< ${BUDGETS.queueMs} ms`, verdict(r.infoMs < BUDGETS.queueMs)]);
  rows.push([
    `Review queue, first page (${r.queueTotal} pairs)`,
    ms(r.queueMs),
    `< ${BUDGETS.queueMs} ms`,
    verdict(r.queueMs < BUDGETS.queueMs),
  ]);
  for (const c of r.concordance)
    rows.push([
      `concordance ${c.words} (${c.total} pairs)`,
      ms(c.ms),
      `< ${BUDGETS.concordanceMs} ms`,
      verdict(c.ms < BUDGETS.concordanceMs),
    ]);
  rows.push([
    `Link all ${RARE.src} / ${RARE.tgt}: preview`,
    ms(r.bulk.previewMs),
    `< ${BUDGETS.concordanceMs} ms`,
    verdict(r.bulk.previewMs < BUDGETS.concordanceMs),
  ]);
  rows.push([
    `Link all: apply (${r.bulk.changes} pairs changed)`,
    ms(r.bulk.applyMs),
    `< ${BUDGETS.concordanceMs} ms`,
    verdict(r.bulk.applyMs < BUDGETS.concordanceMs),
  ]);
  const perS = r.pairs / r.exportSeconds;
  rows.push([
    'export JSONL, every pair',
    `${r.exportSeconds.toFixed(1)} s = ${Math.round(perS).toLocaleString('en')} pairs/s`,
    `≥ ${BUDGETS.exportPairsPerS.toLocaleString('en')} pairs/s`,
    verdict(perS >= BUDGETS.exportPairsPerS),
  ]);
  rows.push(['server peak RSS (VmHWM)', `${r.serverPeakRssMb.toFixed(0)} MB`, '(stated)', '']);
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => `  ${row[0].padEnd(w[0])}  ${row[1].padEnd(w[1])}  ${row[2].padEnd(w[2])}  ${row[3]}`);
}

export default async function main(args: string[]): Promise<void> {
  const o = benchOptions('app-scale', args, {
    pairs: { type: 'string', default: '100000,1000000' },
    edits: { type: 'string', default: '10' },
    method: { type: 'string', default: DEFAULT_METHOD },
    mekong: { type: 'string', default: join(ROOT, 'bin/mekong.js') },
  });
  if (!o) return;
  const sizes = numberList('pairs', o.pairs);
  const editsPerSecond = numberOption('edits', o.edits)!;
  const dir = mkdtempSync(join(tmpdir(), 'mekong-app-scale-'));
  try {
    let first: AppScaleReport | null = null;
    for (const pairs of sizes) {
      console.log(`\n${pairs.toLocaleString('en')} pairs:`);
      const r = await appScale({
        pairs,
        editsPerSecond,
        method: o.method!,
        mekong: resolve(o.mekong!),
        dir,
        log: (l) => console.log(`  ${l}`),
      });
      first ??= r;
      console.log(
        `\n${pairs.toLocaleString('en')} pairs (uniq39k cycled, en–de), imported in ${r.importSeconds.toFixed(1)} s; ` +
          `served by mekong serve; ${editsPerSecond} edits/s during Align`,
      );
      for (const line of reportTable(r, first)) console.log(line);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
