// `npm run bench -- crash [--trials N] [--seed S] [--pairs P]`: kill -9 at a random moment of
// the work that writes a project, then check what a user would find on reopening it.
// Trials cycle through four kinds, each in a fresh copy of a project of the bundled sample:
//   import  `mekong import` of a large TSV (the sample cycled to P pairs, default 20,000);
//   edits   `mekong serve` with four HTTP clients each setting gold links on its own pairs
//           (every answered request is an acknowledged edit; one may be in flight);
//   align   the Align job (agree) through `serve`;
//   train   a training run (bilstm-ctl, tiny) through `serve`, killed between checkpoints.
// After each kill: integrity_check ok, the project opens, the import's pairs are all there or
// none, every acknowledged edit is there (or the edit in flight after it), a model alignment
// is complete or absent, the interrupted run is marked failed and each checkpoint it lists
// loads. Prints one row per trial and the totals (losses, corruptions).
import { benchOptions, numberOption } from './bench-options.ts';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { loadNeuralModel } from '../../src/main/models/bilstm/bilstm-folder.ts';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import { listModels } from '../../src/main/store/training-runs.ts';
import { checkpointDir, runDir } from '../../src/main/train/run-files.ts';
import { rng } from '../fuzz/cases.ts';
import { dbOf } from '../../src/main/store/connection.ts';

const ROOT = join(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'resources/sample/vientiane-thaiembassy-sent.csv');
type Kind = 'import' | 'edits' | 'align' | 'train';
const KINDS: Kind[] = ['import', 'edits', 'align', 'train'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function mekong(...args: string[]) {
  return spawnSync(process.execPath, ['bin/mekong.js', ...args], { cwd: ROOT, encoding: 'utf8' });
}

/** `mekong serve` on a project: its process, base URL and token. */
function serve(project: string): Promise<{ proc: ChildProcess; base: string; token: string }> {
  const proc = spawn(process.execPath, ['bin/mekong.js', 'serve', '--project', project, '--port', '0', '--annotator', 'crash'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Mekong is at (http:\/\/[^/]+)\/\?token=(\S+)/.exec(out);
      if (m) resolve({ proc, base: m[1], token: m[2] });
    });
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out.slice(-500)}`)));
  });
}

async function call(base: string, token: string, channel: string, input: unknown): Promise<unknown> {
  const r = await fetch(`${base}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mekong-token': token },
    body: JSON.stringify(input),
  });
  const body = await r.json();
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(body)}`);
  return body;
}

function kill(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

interface Result {
  kind: Kind;
  killedAfterMs: number;
  lost: number;
  corrupt: boolean;
  note: string;
}

/** Opens the project as a user would after the crash; integrity and what the trial wrote. */
function reopen(
  project: string,
  check: (store: ProjectStore) => { lost: number; note: string },
): { lost: number; corrupt: boolean; note: string } {
  let store: ProjectStore;
  try {
    store = ProjectStore.open(project);
  } catch (err) {
    return { lost: 0, corrupt: true, note: `does not open: ${(err as Error).message}` };
  }
  try {
    const integrity = dbOf(store).pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') return { lost: 0, corrupt: true, note: `integrity_check: ${String(integrity)}` };
    return { ...check(store), corrupt: false };
  } finally {
    store.close();
  }
}

async function importTrial(project: string, big: string, pairs: number, delay: number): Promise<Omit<Result, 'kind' | 'killedAfterMs'>> {
  const before = ProjectStore.open(project);
  const n0 = before.info().pairs;
  before.close();
  const proc = spawn(process.execPath, ['bin/mekong.js', 'import', project, big, '--format', 'tsv'], { cwd: ROOT, stdio: 'ignore' });
  await sleep(delay);
  await kill(proc);
  return reopen(project, (s) => {
    const n = s.info().pairs;
    const ok = n === n0 || n === n0 + pairs;
    return {
      lost: ok ? 0 : 1,
      note: ok
        ? n === n0
          ? 'import not finished: none visible'
          : 'import finished: all visible'
        : `partial import visible: ${n - n0} of ${pairs}`,
    };
  });
}

async function editsTrial(project: string, delay: number, r: () => number): Promise<Omit<Result, 'kind' | 'killedAfterMs'>> {
  const { proc, base, token } = await serve(project);
  const acked = new Map<number, string>();
  const inFlight = new Map<number, string>();
  let stop = false;
  const client = async (c: number) => {
    for (let k = 0; !stop; k++) {
      const pairId = 1 + c * 10 + (k % 10);
      const n = 1 + Math.floor(r() * 4);
      const links = Array.from({ length: n }, (_, i) => ({ s: i, t: (i + k) % 3, kind: 'sure', score: null }));
      const key = JSON.stringify(links.map((l) => `${l.s}-${l.t}`).sort());
      inFlight.set(pairId, key);
      try {
        await call(base, token, 'editor.setGold', { pairId, links, untranslated: [] });
        acked.set(pairId, key);
      } catch {
        return; // the server is gone
      }
    }
  };
  const clients = [0, 1, 2, 3].map(client);
  await sleep(delay);
  stop = true;
  await kill(proc);
  await Promise.all(clients);
  return reopen(project, (s) => {
    let lost = 0;
    const gold = s.info().alignments.find((a) => a.origin === 'gold' && a.annotator === 'crash');
    for (const [pairId, key] of acked) {
      const links = gold ? (s.getPair(pairId).alignments.find((a) => a.alignmentId === gold.id)?.links ?? []) : [];
      const have = JSON.stringify(links.map((l) => `${l.s}-${l.t}`).sort());
      if (have !== key && have !== inFlight.get(pairId)) lost++;
    }
    return { lost, note: `${acked.size} pairs with acknowledged edits` };
  });
}

async function jobTrial(kind: 'align' | 'train', project: string, delay: number): Promise<Omit<Result, 'kind' | 'killedAfterMs'>> {
  const { proc, base, token } = await serve(project);
  if (kind === 'align') await call(base, token, 'align.start', { method: 'agree', sym: 'gdfa' });
  else await call(base, token, 'models.train', { epochs: 50, dim: 16, batchSize: 16, checkpointEvery: 1 });
  await sleep(delay);
  await kill(proc);
  return reopen(project, (s) => {
    if (kind === 'align') {
      const model = s.info().alignments.filter((a) => a.origin === 'model');
      const links = dbOf(s).prepare(`SELECT count(DISTINCT pair_id) AS n FROM links WHERE alignment_id = ?`);
      const partial = model.filter((a) => (links.get(a.id) as { n: number }).n < s.info().pairs * 0.9);
      return { lost: partial.length, note: model.length ? `alignment complete (${model[0].links} links)` : 'no alignment yet' };
    }
    const runs = listModels(s, () => null).flatMap((m) => m.runs);
    let lost = 0;
    const notes: string[] = [];
    for (const run of runs) {
      if (run.state === 'running') lost++;
      for (const c of run.checkpoints) {
        try {
          loadNeuralModel(checkpointDir(runDir(project, run.id), c.epoch));
        } catch (err) {
          lost++;
          notes.push(`checkpoint ${c.epoch}: ${(err as Error).message}`);
        }
      }
      notes.push(`run ${run.state}, ${run.checkpoints.length} checkpoints`);
    }
    return { lost, note: notes.join('; ') || 'no run recorded yet' };
  });
}

export default async function main(args: string[]): Promise<void> {
  const o = benchOptions('crash', args, {
    trials: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    pairs: { type: 'string', default: '20000' },
  });
  if (!o) return;
  const trials = numberOption('trials', o.trials)!;
  const r = rng(numberOption('seed', o.seed)!);
  const pairs = numberOption('pairs', o.pairs)!;
  const dir = mkdtempSync(join(tmpdir(), 'mekong-crash-'));
  try {
    const base = join(dir, 'base.mekong');
    const created = mekong('project', 'create', base, '--src-lang', 'lo', '--tgt-lang', 'th');
    if (created.status !== 0) throw new Error(created.stderr);
    const imported = mekong('import', base, SAMPLE, '--header', '--src-column', 'lao_sent', '--tgt-column', 'thai_sent');
    if (imported.status !== 0) throw new Error(imported.stderr);
    const rows = parse(readFileSync(SAMPLE), { bom: true, columns: true }) as { lao_sent: string; thai_sent: string }[];
    const big = join(dir, 'big.tsv');
    const line = (k: number) =>
      `${rows[k % rows.length].lao_sent.replace(/[\t\n]/g, ' ')}\t${rows[k % rows.length].thai_sent.replace(/[\t\n]/g, ' ')}\n`;
    writeFileSync(big, Array.from({ length: pairs }, (_, k) => line(k)).join(''));
    const results: Result[] = [];
    console.log('| trial | kind | killed after | lost | corrupt | note |\n|---|---|---|---|---|---|');
    for (let t = 0; t < trials; t++) {
      const kind = KINDS[t % KINDS.length];
      const project = join(dir, `t${t}.mekong`);
      copyFileSync(base, project);
      const delay = Math.round(kind === 'train' ? 8_000 + r() * 25_000 : kind === 'align' ? 300 + r() * 6_000 : 200 + r() * 5_000);
      const out =
        kind === 'import'
          ? await importTrial(project, big, pairs, delay)
          : kind === 'edits'
            ? await editsTrial(project, delay, r)
            : await jobTrial(kind, project, delay);
      const res = { kind, killedAfterMs: delay, ...out };
      results.push(res);
      console.log(`| ${t + 1} | ${kind} | ${(delay / 1000).toFixed(1)} s | ${res.lost} | ${res.corrupt ? 'YES' : 'no'} | ${res.note} |`);
      rmSync(project, { force: true });
      rmSync(`${project}.models`, { recursive: true, force: true });
    }
    const lost = results.reduce((n, x) => n + x.lost, 0);
    const corrupt = results.filter((x) => x.corrupt).length;
    console.log(
      `\n${results.length} trials (${KINDS.map((k) => `${results.filter((x) => x.kind === k).length} ${k}`).join(', ')}): ${lost} losses, ${corrupt} corruptions`,
    );
    if (lost || corrupt) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
