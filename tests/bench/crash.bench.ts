// `npm run bench -- crash [--trials N] [--seed S] [--pairs P] [--kinds a,b…]`: kill -9 at a
// random moment of the work that writes a project, then check what a user would find on
// reopening it. Trials cycle through the kinds, each in a fresh copy of a project of the
// bundled sample (or of a large one built from it):
//   import         `mekong import` of a large TSV (the sample cycled to P pairs, default 20,000);
//   edits          `mekong serve` with four HTTP clients each setting gold links on its own pairs
//                  (every answered request is an acknowledged edit; one may be in flight);
//   align          the Align job (agree) through `serve`;
//   train          a training run (bilstm-ctl, tiny) through `serve`;
//   resegment      `mekong resegment` of a large project imported pretokenized with links;
//   export         `mekong export` of the large project to JSONL;
//   two-processes  `mekong import` (or, every other trial, the Align job through `serve`) in
//                  one process while a second one runs `mekong info` and `mekong export` on the
//                  same project over and over; the first, the second or both are killed.
// A kill takes the command's whole process group at once. Its moment is drawn from 0 to 1.1×
// the job's duration, measured once per kind in a dry run, so kills also land after the last
// commit and after the end (edits have no end: 0.2–5.2 s).
// After each kill: integrity_check ok, the project opens, the import's pairs are all there or
// none, every acknowledged edit is there (or the edit in flight after it), a model alignment
// is absent or has, for every pair, the links of the dry run's alignment, the interrupted run
// is not left running and each checkpoint it lists loads, each pair is wholly as before or as
// after the resegment (part of them after a kill part-way) and one undo puts them all back as
// before, an export is absent or equal to the dry run's and the next export into the folder
// leaves no partial file; a process that was not killed finishes its work, and a
// command that fails says so in one line without a stack trace. Prints one row per trial and
// per-kind totals (trials, losses, corruptions, partial resegments, errors).
import { benchOptions, listOption, numberOption } from './bench-options.ts';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import WebSocket from 'ws';
import { loadNeuralModel } from '../../src/main/models/bilstm/bilstm-folder.ts';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import { listModels } from '../../src/main/store/training-runs.ts';
import { checkpointDir, runDir } from '../../src/main/train/run-files.ts';
import { rng } from '../fuzz/cases.ts';
import { userEnv } from '../../bin/malloc-tuning.js';
import { dbOf } from '../../src/main/store/connection.ts';

const ROOT = join(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'resources/sample/vientiane-thaiembassy-sent.csv');
const KINDS = ['import', 'edits', 'align', 'train', 'resegment', 'export', 'two-processes'] as const;
type Kind = (typeof KINDS)[number];
/** The train kind's run: epochs then self-training epochs, each with a checkpoint; short enough for a dry run. */
const TRAIN_EPOCHS = 5;
const SELF_TRAIN_EPOCHS = 1;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function mekong(...args: string[]) {
  return spawnSync(process.execPath, ['bin/mekong.js', ...args], { cwd: ROOT, encoding: 'utf8', env: userEnv() });
}

/** A `mekong` command in its own process group (the launcher and the process it relaunches). */
interface Command {
  proc: ChildProcess;
  /** Resolves when the command has ended: its exit code (null when killed) and stderr. */
  ended: Promise<{ code: number | null; stderr: string; ms: number }>;
  stdout: () => string;
}

function start(...args: string[]): Command {
  const t0 = Date.now();
  const proc = spawn(process.execPath, ['bin/mekong.js', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: userEnv(),
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ended = new Promise<{ code: number | null; stderr: string; ms: number }>((resolve) =>
    proc.on('close', (code) => resolve({ code, stderr: err, ms: Date.now() - t0 })),
  );
  return { proc, ended, stdout: () => out };
}

/** Whether a process of group `pgid` is still alive (zombies count as gone). */
function groupAlive(pgid: number): boolean {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(f[2]) === pgid && f[0] !== 'Z') return true;
  }
  return false;
}

/** kill -9 to the command's whole group; resolves once no process of it is left. */
async function kill(c: Command): Promise<void> {
  const pgid = c.proc.pid!;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // the group has already ended
  }
  await c.ended;
  while (groupAlive(pgid)) await sleep(20);
}

/** `mekong serve` on a project: its command, base URL and token. */
function serve(project: string): Promise<{ cmd: Command; base: string; token: string }> {
  const cmd = start('serve', '--project', project, '--port', '0', '--annotator', 'crash');
  return new Promise((resolve, reject) => {
    let out = '';
    cmd.proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Mekong is at (http:\/\/[^/]+)\/\?token=(\S+)/.exec(out);
      if (m) resolve({ cmd, base: m[1], token: m[2] });
    });
    void cmd.ended.then(({ code, stderr }) => reject(new Error(`serve exited (${code}): ${(out + stderr).slice(-500)}`)));
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

/** Starts a job through the server and resolves when its end event arrives (the job's duration in ms). */
async function startJob(base: string, token: string, channel: string, input: unknown): Promise<{ finished: Promise<number> }> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/events?token=${token}`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const events: { type: string; jobId: string; error?: string }[] = [];
  let jobId: string | null = null;
  let settle: ((e: { type: string; error?: string }) => void) | null = null;
  ws.on('message', (m: Buffer) => {
    const e = JSON.parse(m.toString()) as { type: string; jobId: string; error?: string };
    if (e.type === 'job.progress') return;
    events.push(e);
    if (settle && e.jobId === jobId) settle(e);
  });
  ws.on('error', () => {}); // the server's kill closes the socket
  const t0 = Date.now();
  jobId = ((await call(base, token, channel, input)) as { jobId: string }).jobId;
  const finished = new Promise<number>((resolve, reject) => {
    settle = (e) => {
      ws.close();
      if (e.type === 'job.done') resolve(Date.now() - t0);
      else reject(new Error(`${channel}: ${e.type} ${e.error ?? ''}`));
    };
    const early = events.find((e) => e.jobId === jobId);
    if (early) settle(early);
  });
  finished.catch(() => {});
  return { finished };
}

interface Verdict {
  lost: number;
  corrupt: boolean;
  /** A resegment left part of the pairs resegmented and part not. */
  partial?: boolean;
  /** Commands that failed other than with a one-line message, or did not finish their work. */
  errors?: number;
  note: string;
}

interface Result extends Required<Verdict> {
  kind: Kind;
  killedAfterMs: number;
}

/** Opens the project as a user would after the crash; integrity and what the trial wrote. */
function reopen(project: string, check: (store: ProjectStore) => Omit<Verdict, 'corrupt'>): Verdict {
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

/** Whether a failed command said so as a user should see it: one line, no stack trace. */
function oneLine(stderr: string): boolean {
  const lines = stderr.trimEnd().split('\n');
  return lines.length === 1 && !/^\s+at |\b(?:[A-Z][A-Za-z]*)?Error\b/m.test(stderr) && lines[0] !== '';
}

/** What one dry run of a kind measured and produced, for the trials to compare against. */
interface Reference {
  durationMs: number;
  /** two-processes: the Align job's duration (durationMs is the import's). */
  alignMs?: number;
  /** align, two-processes: the link count of each pair in the complete alignment. */
  linksPerPair?: Map<number, number>;
  /** resegment: each pair's tokens and links before and after. */
  before?: Map<number, string>;
  after?: Map<number, string>;
  /** export: the finished file's digest. */
  exportDigest?: string;
}

/** Each pair's tokens and links (every alignment's), as one string per pair id. */
function pairStates(store: ProjectStore): Map<number, string> {
  const db = dbOf(store);
  const states = new Map<number, string>();
  for (const p of db.prepare(`SELECT id, src_tokens, tgt_tokens FROM pairs`).all() as {
    id: number;
    src_tokens: Buffer;
    tgt_tokens: Buffer;
  }[])
    states.set(p.id, `${p.src_tokens.toString('hex')}|${p.tgt_tokens.toString('hex')}|`);
  for (const l of db.prepare(`SELECT pair_id, alignment_id, s, t, kind FROM links ORDER BY pair_id, alignment_id, s, t`).all() as {
    pair_id: number;
    alignment_id: number;
    s: number;
    t: number;
    kind: string;
  }[])
    states.set(l.pair_id, `${states.get(l.pair_id)} ${l.alignment_id}:${l.s}-${l.t}${l.kind[0]}`);
  return states;
}

function modelLinksPerPair(store: ProjectStore, alignmentId: number): Map<number, number> {
  const rows = dbOf(store)
    .prepare(`SELECT pair_id AS p, count(*) AS n FROM links WHERE alignment_id = ? GROUP BY pair_id`)
    .all(alignmentId) as {
    p: number;
    n: number;
  }[];
  return new Map(rows.map((r) => [r.p, r.n]));
}

const pairsOf = (project: string) => {
  const s = ProjectStore.open(project);
  try {
    return s.info().pairs;
  } finally {
    s.close();
  }
};

/** A project file with its WAL, shared-memory, lease and model files. */
function removeProject(project: string): void {
  for (const f of [project, `${project}-wal`, `${project}-shm`, `${project}-leases`, `${project}.models`])
    rmSync(f, { recursive: true, force: true });
}

const sha1 = (file: string) => createHash('sha1').update(readFileSync(file)).digest('hex');

async function importTrial(project: string, big: string, pairs: number, delay: number): Promise<Verdict> {
  const n0 = pairsOf(project);
  const cmd = start('import', project, big, '--format', 'tsv');
  await sleep(delay);
  await kill(cmd);
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

async function editsTrial(project: string, delay: number, r: () => number): Promise<Verdict> {
  const { cmd, base, token } = await serve(project);
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
  await kill(cmd);
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

const JOB_ALIGN = ['align.start', { method: 'agree', sym: 'gdfa' }] as const;
const JOBS = {
  align: JOB_ALIGN,
  train: ['models.train', { epochs: TRAIN_EPOCHS, selfTrainEpochs: SELF_TRAIN_EPOCHS, dim: 16, batchSize: 16, checkpointEvery: 1 }],
} as const;

/** The align or train job through `serve`, killed after `delay` ms (or run to its end when null). */
async function jobTrial(
  kind: 'align' | 'train',
  project: string,
  delay: number | null,
  ref: Reference | null,
): Promise<Verdict & { ms?: number }> {
  const { cmd, base, token } = await serve(project);
  const [channel, input] = JOBS[kind];
  const { finished } = await startJob(base, token, channel, input);
  let ms: number | undefined;
  if (delay === null) ms = await finished;
  else await sleep(delay);
  await kill(cmd);
  const verdict = reopen(project, (s) => {
    if (kind === 'align') return alignmentCheck(s, ref?.linksPerPair, false);
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
  return { ...verdict, ms };
}

/**
 * The project's model alignments, each of which must have, for every pair, the link count of
 * the dry run's (`want`; without it only counted); `required`: one must exist.
 */
function alignmentCheck(s: ProjectStore, want: Map<number, number> | undefined, required: boolean): Omit<Verdict, 'corrupt'> {
  const model = s.info().alignments.filter((a) => a.origin === 'model');
  if (!model.length) return { lost: required ? 1 : 0, note: 'no alignment' };
  let lost = 0;
  const notes: string[] = [];
  for (const a of model) {
    const have = modelLinksPerPair(s, a.id);
    if (!want) {
      notes.push(`${have.size} of ${s.info().pairs} pairs with links`);
      continue;
    }
    const wrong = [...new Set([...want.keys(), ...have.keys()])].filter((p) => want.get(p) !== have.get(p));
    if (wrong.length) {
      lost++;
      notes.push(
        `alignment ${a.id}: ${wrong.length} pairs without their links (pair ${wrong[0]}: ${have.get(wrong[0]) ?? 0} of ${want.get(wrong[0]) ?? 0})`,
      );
    } else notes.push(`alignment complete (${a.links} links, every pair)`);
  }
  return { lost, note: notes.join('; ') };
}

async function resegmentTrial(project: string, delay: number, ref: Reference): Promise<Verdict> {
  const cmd = start('resegment', project, '--annotator', 'crash');
  await sleep(delay);
  await kill(cmd);
  return reopen(project, (s) => {
    const now = pairStates(s);
    let before = 0,
      after = 0,
      neither = 0;
    for (const [id, state] of ref.before!) {
      if (state === ref.after!.get(id) && now.get(id) === state) (before++, after++);
      else if (now.get(id) === state) before++;
      else if (now.get(id) === ref.after!.get(id)) after++;
      else neither++;
    }
    const n = ref.before!.size;
    const missing = n - now.size;
    const partial = neither === 0 && before < n && after < n;
    // what was written is one edit group: one undo puts every pair back as it was
    let unrestored = 0;
    if (!neither && !missing && before < n) {
      s.undo('crash');
      const undone = pairStates(s);
      unrestored = [...ref.before!].filter(([id, state]) => undone.get(id) !== state).length;
    }
    return {
      lost: neither + Math.max(0, missing) + unrestored,
      partial,
      note:
        (neither || missing
          ? `${neither} pairs neither as before nor as after, ${missing} pairs missing`
          : after === n
            ? 'resegment finished: every pair as after'
            : before === n
              ? 'resegment not finished: every pair as before'
              : `partial: ${after} of ${n} pairs resegmented`) +
        (before < n && !neither && !missing
          ? `; one undo: ${unrestored ? `${unrestored} pairs not restored` : 'every pair as before'}`
          : ''),
    };
  });
}

async function exportTrial(project: string, dir: string, delay: number, ref: Reference): Promise<Verdict> {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'out.jsonl');
  const cmd = start('export', project, out, '--format', 'jsonl');
  await sleep(delay);
  await kill(cmd);
  const notes: string[] = [];
  let corrupt = false,
    errors = 0;
  if (existsSync(out)) {
    if (sha1(out) !== ref.exportDigest) {
      corrupt = true;
      notes.push('a finished export differs from the dry run’s');
    } else notes.push('export finished');
  } else notes.push('no export');
  const left = readdirSync(dir).filter((f) => f.includes('.partial'));
  if (left.length) notes.push(`${left.length} partial file(s) left`);
  const next = start('export', project, join(dir, 'next.jsonl'), '--format', 'jsonl');
  const end = await next.ended;
  if (end.code !== 0) {
    errors++;
    notes.push(`next export failed: ${end.stderr.trim().slice(0, 200)}`);
  } else if (sha1(join(dir, 'next.jsonl')) !== ref.exportDigest) {
    corrupt = true;
    notes.push('next export differs from the dry run’s');
  }
  const still = readdirSync(dir).filter((f) => f.includes('.partial'));
  if (still.length) {
    errors++;
    notes.push(`after the next export: ${still.join(', ')}`);
  }
  return { lost: 0, corrupt, errors, note: notes.join('; ') };
}

/**
 * An import (`mekong import`) or an Align job (through `serve`) in one process while a second
 * runs `info` and `export` in a loop; `victim` says which is killed at `delay`. What was not
 * killed must finish: the import with all its pairs, the alignment with every pair's links,
 * each info/export with exit 0 (an export then holds the pairs from before or after the
 * import) or a one-line refusal.
 */
async function twoProcessesTrial(
  project: string,
  dir: string,
  first: 'import' | 'align',
  big: string,
  pairs: number,
  delay: number,
  victim: 'first' | 'second' | 'both',
  ref: Reference,
): Promise<Verdict> {
  mkdirSync(dir, { recursive: true });
  const n0 = pairsOf(project);
  const added = first === 'import' ? pairs : 0;
  let firstCmd: Command;
  /** Resolves when the first process's work has ended: null when it finished, else why not. */
  let firstEnded: Promise<string | null>;
  if (first === 'import') {
    firstCmd = start('import', project, big, '--format', 'tsv');
    firstEnded = firstCmd.ended.then((e) => (e.code === 0 ? null : e.stderr.trim().split('\n').slice(0, 2).join(' | ').slice(0, 300)));
  } else {
    const served = await serve(project);
    firstCmd = served.cmd;
    const { finished } = await startJob(served.base, served.token, ...JOB_ALIGN);
    firstEnded = Promise.race([
      finished.then(
        () => null,
        (e: Error) => e.message,
      ),
      firstCmd.ended.then(() => 'the server ended'),
    ]);
  }
  let firstDone = false;
  void firstEnded.then(() => (firstDone = true));
  const second: { cmd: Command | null } = { cmd: null };
  let stopSecond = false;
  let secondKilled = false;
  let errors = 0;
  const notes: string[] = [];
  let runs = 0;
  const loop = (async () => {
    for (let k = 0; !stopSecond && !firstDone; k++) {
      const out = join(dir, `e${k}.tsv`);
      second.cmd = k % 2 === 0 ? start('info', project) : start('export', project, out, '--format', 'tsv');
      const end = await second.cmd.ended;
      if (secondKilled) return;
      runs++;
      if (end.code !== 0 && !oneLine(end.stderr)) {
        errors++;
        notes.push(`${k % 2 ? 'export' : 'info'} failed: ${end.stderr.trim().split('\n').slice(0, 2).join(' | ').slice(0, 200)}`);
      } else if (end.code !== 0) notes.push(`${k % 2 ? 'export' : 'info'} refused: ${end.stderr.trim()}`);
      else if (k % 2 === 1) {
        const lines = readFileSync(out, 'utf8').split('\n').length - 1;
        if (lines !== n0 && lines !== n0 + added) {
          errors++;
          notes.push(`an export saw ${lines} pairs (before ${n0}, after ${n0 + added})`);
        }
        rmSync(out, { force: true });
      }
    }
  })();
  await sleep(delay);
  if (victim !== 'second') await kill(firstCmd);
  if (victim !== 'first') {
    stopSecond = true;
    secondKilled = true;
    if (second.cmd) await kill(second.cmd);
  }
  const failure = await firstEnded;
  await kill(firstCmd); // the server, once its job has ended
  stopSecond = true;
  await loop;
  if (victim === 'second' && failure !== null) {
    errors++;
    notes.push(`the ${first} failed: ${failure}`);
  }
  const verdict = reopen(project, (s) => {
    if (first === 'align') {
      const v = alignmentCheck(s, ref.linksPerPair, victim === 'second');
      return { ...v, note: `align, ${victim} killed; ${v.note}; ${runs} info/export runs` };
    }
    const n = s.info().pairs;
    const whole = victim === 'second' ? n === n0 + pairs : n === n0 || n === n0 + pairs;
    return {
      lost: whole ? 0 : 1,
      note: `import, ${victim} killed; import ${n === n0 + pairs ? 'all visible' : n === n0 ? 'none visible' : `partly visible (${n - n0} of ${pairs})`}; ${runs} info/export runs`,
    };
  });
  return { ...verdict, errors, note: [verdict.note, ...notes.slice(0, 3)].join('; ') };
}

export default async function main(args: string[]): Promise<void> {
  const o = benchOptions('crash', args, {
    trials: { type: 'string', default: '21' },
    seed: { type: 'string', default: '1' },
    pairs: { type: 'string', default: '20000' },
    kinds: { type: 'string', default: KINDS.join(',') },
  });
  if (!o) return;
  const trials = numberOption('trials', o.trials)!;
  const r = rng(numberOption('seed', o.seed)!);
  const pairs = numberOption('pairs', o.pairs)!;
  const kinds = listOption(o.kinds) as Kind[];
  const unknown = kinds.filter((k) => !KINDS.includes(k));
  if (unknown.length || !kinds.length) throw new Error(`unknown kind(s) ${unknown.join(', ')}: the kinds are ${KINDS.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'mekong-crash-'));
  const must = (res: ReturnType<typeof mekong>) => {
    if (res.status !== 0) throw new Error(res.stderr);
  };
  try {
    const base = join(dir, 'base.mekong');
    must(mekong('project', 'create', base, '--src-lang', 'lo', '--tgt-lang', 'th'));
    must(mekong('import', base, SAMPLE, '--header', '--src-column', 'lao_sent', '--tgt-column', 'thai_sent'));
    const rows = parse(readFileSync(SAMPLE), { bom: true, columns: true }) as { lao_sent: string; thai_sent: string }[];
    const big = join(dir, 'big.tsv');
    const side = (k: number, s: 'lao_sent' | 'thai_sent') => rows[k % rows.length][s].replace(/\s+/g, ' ').trim();
    writeFileSync(big, Array.from({ length: pairs }, (_, k) => `${side(k, 'lao_sent')}\t${side(k, 'thai_sent')}\n`).join(''));
    // The large project: the big TSV imported pretokenized (space-separated phrases) with
    // diagonal links, so that a resegment changes the tokens of every pair and moves links.
    const large = join(dir, 'large.mekong');
    if (kinds.includes('resegment') || kinds.includes('export')) {
      copyFileSync(base, large);
      const links = join(dir, 'big.links');
      const diagonal = (k: number) => {
        const n = Math.min(side(k, 'lao_sent').split(' ').length, side(k, 'thai_sent').split(' ').length);
        return Array.from({ length: n }, (_, i) => `${i}-${i}`).join(' ');
      };
      writeFileSync(links, Array.from({ length: pairs }, (_, k) => diagonal(k) + '\n').join(''));
      must(mekong('import', large, big, '--format', 'tsv', '--pretokenized', '--links', links));
    }

    // One dry run per kind: the job's duration (the range of kill moments) and its result.
    const refs = new Map<Kind, Reference>();
    for (const kind of kinds) {
      const project = join(dir, `dry-${kind}.mekong`);
      copyFileSync(kind === 'resegment' || kind === 'export' ? large : base, project);
      const t0 = Date.now();
      if (kind === 'edits') refs.set(kind, { durationMs: 5_000 });
      else if (kind === 'import' || kind === 'two-processes') {
        const end = await start('import', project, big, '--format', 'tsv').ended;
        if (end.code !== 0) throw new Error(`dry run of ${kind}: ${end.stderr}`);
        refs.set(kind, { durationMs: end.ms });
        if (kind === 'two-processes') {
          // the Align job variant: its duration and its alignment, on the base project
          removeProject(project);
          copyFileSync(base, project);
          const { ms } = await jobTrial('align', project, null, null);
          const s = ProjectStore.open(project);
          refs.set(kind, {
            durationMs: end.ms,
            alignMs: ms!,
            linksPerPair: modelLinksPerPair(s, s.info().alignments.find((a) => a.origin === 'model')!.id),
          });
          s.close();
        }
      } else if (kind === 'align' || kind === 'train') {
        const { ms } = await jobTrial(kind, project, null, null);
        const ref: Reference = { durationMs: ms! };
        if (kind === 'align') {
          const s = ProjectStore.open(project);
          const model = s.info().alignments.find((a) => a.origin === 'model')!;
          ref.linksPerPair = modelLinksPerPair(s, model.id);
          console.log(`dry run align: ${ref.linksPerPair.size} of ${s.info().pairs} pairs have links`);
          s.close();
        }
        refs.set(kind, ref);
      } else if (kind === 'resegment') {
        const s = ProjectStore.open(project);
        const before = pairStates(s);
        s.close();
        const end = await start('resegment', project, '--annotator', 'crash').ended;
        if (end.code !== 0) throw new Error(`dry run of resegment: ${end.stderr}`);
        const s2 = ProjectStore.open(project);
        const after = pairStates(s2);
        s2.close();
        const changed = [...before].filter(([id, st]) => after.get(id) !== st).length;
        console.log(`dry run resegment: ${changed} of ${before.size} pairs change`);
        refs.set(kind, { durationMs: end.ms, before, after });
      } else {
        const out = join(dir, 'dry-export.jsonl');
        const end = await start('export', project, out, '--format', 'jsonl').ended;
        if (end.code !== 0) throw new Error(`dry run of export: ${end.stderr}`);
        refs.set(kind, { durationMs: end.ms, exportDigest: sha1(out) });
      }
      console.log(
        `dry run ${kind}: ${((Date.now() - t0) / 1000).toFixed(1)} s wall, job ${(refs.get(kind)!.durationMs / 1000).toFixed(1)} s`,
      );
      removeProject(project);
    }

    const results: Result[] = [];
    console.log('\n| trial | kind | killed after | of job | lost | corrupt | note |\n|---|---|---|---|---|---|---|');
    for (let t = 0; t < trials; t++) {
      const kind = kinds[t % kinds.length];
      const ref = refs.get(kind)!;
      const project = join(dir, `t${t}.mekong`);
      copyFileSync(kind === 'resegment' || kind === 'export' ? large : base, project);
      // two-processes alternates between an import and an Align job as the first process
      const first = Math.floor(t / kinds.length) % 2 === 0 ? 'import' : 'align';
      const duration = kind === 'two-processes' && first === 'align' ? ref.alignMs! : ref.durationMs;
      const delay = Math.round(kind === 'edits' ? 200 + r() * duration : r() * 1.1 * duration);
      const work = join(dir, `t${t}`);
      const out: Verdict =
        kind === 'import'
          ? await importTrial(project, big, pairs, delay)
          : kind === 'edits'
            ? await editsTrial(project, delay, r)
            : kind === 'align' || kind === 'train'
              ? await jobTrial(kind, project, delay, ref)
              : kind === 'resegment'
                ? await resegmentTrial(project, delay, ref)
                : kind === 'export'
                  ? await exportTrial(project, work, delay, ref)
                  : await twoProcessesTrial(
                      project,
                      work,
                      first,
                      big,
                      pairs,
                      delay,
                      (['first', 'second', 'both'] as const)[Math.floor(r() * 3)],
                      ref,
                    );
      const res: Result = { kind, killedAfterMs: delay, partial: false, errors: 0, ...out };
      results.push(res);
      console.log(
        `| ${t + 1} | ${kind} | ${(delay / 1000).toFixed(1)} s | ${kind === 'edits' ? '–' : `${Math.round((100 * delay) / duration)}%`} | ${res.lost} | ${res.corrupt ? 'YES' : 'no'} | ${res.note}${res.errors ? ` (${res.errors} errors)` : ''} |`,
      );
      removeProject(project);
      rmSync(work, { recursive: true, force: true });
    }
    console.log('\n| kind | trials | losses | corruptions | partial resegments | errors |\n|---|---|---|---|---|---|');
    const sum = (xs: Result[], f: (x: Result) => number) => xs.reduce((n, x) => n + f(x), 0);
    for (const kind of kinds) {
      const xs = results.filter((x) => x.kind === kind);
      console.log(
        `| ${kind} | ${xs.length} | ${sum(xs, (x) => x.lost)} | ${sum(xs, (x) => +x.corrupt)} | ${sum(xs, (x) => +x.partial)} | ${sum(xs, (x) => x.errors)} |`,
      );
    }
    const lost = sum(results, (x) => x.lost);
    const corrupt = sum(results, (x) => +x.corrupt);
    const errors = sum(results, (x) => x.errors);
    console.log(`\n${results.length} trials: ${lost} losses, ${corrupt} corruptions, ${errors} errors`);
    if (lost || corrupt || errors) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
