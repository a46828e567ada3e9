// The team server's load test harness (team.bench.ts runs it; a unit test runs a short one):
// - `teamProject`: a project of P pairs (the bundled Lao–Thai sample cycled, pretokenized) with
//   a team file of annotator accounts a01…aNN and a manager;
// - `teamLoad`: `mekong serve --team` on it in a child process; N simulated annotators, each
//   logged in with its own session cookie and CSRF token and holding the event socket open,
//   move through their own range of pairs (telling the server which pair they have open, then
//   reading it), toggle gold links and undo for D seconds, while the manager runs an Align job;
//   then the server is stopped and the database read back.
// A call whose connection closed before any answer is sent again after a second with the
// same request id, as the editor does, so the server runs it once (an undo too).
// Reports edit → acknowledged latencies (link toggles and undos, from the first send), pair moves, errors, the
// server's peak resident memory (VmHWM of its process tree) and the acknowledged edits lost:
// for every pair an annotator touched, the cells where the gold the database holds differs
// from the last state the server acknowledged (its answer to the last toggle or undo).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import WebSocket from 'ws';
import type { Link } from '../../src/shared/link-set.ts';
import { REQUEST_ID_HEADER } from '../../src/shared/api.ts';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import { runImport } from '../../src/main/corpus/import-pipeline.ts';
import { TeamFile } from '../../src/main/store/team-file.ts';
import { hashPassword } from '../../src/main/team/passwords.ts';
import { goldIdOf } from '../../src/main/store/gold-layer.ts';
import { pairLinksReader } from '../../src/main/store/alignments.ts';
import { exited, peakRssMb, quantile } from './served-project.ts';

const ROOT = join(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'resources/sample/vientiane-thaiembassy-sent.csv');
const MEKONG = join(ROOT, 'bin/mekong.js');
export const PASSWORD = 'load-test-password-0123';
export const MANAGER = 'manager';
/** When the manager starts the Align job after the annotators began (at most a tenth of the run). */
const ALIGN_AFTER_MS = 5000;
/** How long after the annotators stop an Align job still running may take to end before it is cancelled. */
const ALIGN_GRACE_MS = 120_000;

/** The account name of annotator k (0-based). */
export const annotatorName = (k: number) => `a${String(k + 1).padStart(2, '0')}`;

/** A project of `pairs` pairs in `dir` with `annotators` annotator accounts and a manager; answers its path. */
export async function teamProject(dir: string, pairs: number, annotators: number): Promise<string> {
  const path = join(dir, 'team.mekong');
  const sample = (parse(readFileSync(SAMPLE), { bom: true, from_line: 2 }) as string[][]).map(([lo, th]) => `${lo}\t${th}`);
  const tsv = join(dir, 'corpus.tsv');
  writeFileSync(tsv, Array.from({ length: pairs }, (_, i) => `${sample[i % sample.length]} ${i}\n`).join(''));
  const store = ProjectStore.create(path, { name: 'team load', srcLang: 'lo', tgtLang: 'th' });
  try {
    await runImport(store, { file: tsv, format: 'tsv', tokenization: 'pretokenized', anyScript: true });
  } finally {
    store.close();
  }
  const file = TeamFile.open(path, { create: true });
  const hash = await hashPassword(PASSWORD);
  const now = Date.now();
  for (let k = 0; k < annotators; k++) file.addAccount(annotatorName(k), 'annotator', hash, now);
  file.addAccount(MANAGER, 'manager', hash, now);
  file.close();
  return path;
}

export interface TeamLoadOptions {
  project: string;
  clients: number;
  seconds: number;
  seed: number;
  /** The Align job the manager runs ('' for none). */
  alignMethod: string;
  /** Mean pause between an annotator's actions, in ms (each pause 0.5–1.5× it). */
  thinkMs: number;
}

export interface TeamLoadReport {
  clients: number;
  seconds: number;
  /** Link toggles and undos acknowledged. */
  edits: number;
  undos: number;
  editP50: number;
  editP99: number;
  editMax: number;
  moves: number;
  moveP50: number;
  moveP99: number;
  /** Failed calls by their message. */
  errors: Record<string, number>;
  /** Calls sent again after the connection closed under them (each then acknowledged or counted in errors). */
  retries: number;
  /** Pairs checked against the database, and the acknowledged cells missing or extra there. */
  pairsChecked: number;
  lost: number;
  serverPeakRssMb: number;
  /**
   * The Align job: how it ended and when, in seconds from the start ('running': the test ended
   * first; then `seconds` is when it started), and how long align.start took to answer.
   */
  align: { outcome: string; seconds: number; startAnswerMs: number } | null;
}

/** mulberry32: a small seeded generator, so a run's choices repeat. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `mekong serve --team` on the project: its process and base URL. */
function serve(project: string): Promise<{ proc: ChildProcess; base: string }> {
  const proc = spawn(process.execPath, [MEKONG, 'serve', '--team', '--project', project, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Mekong is at (http:\/\/[^/\s]+)\//.exec(out);
      if (m) resolve({ proc, base: m[1] });
    });
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out.slice(-500)}`)));
  });
}

/** A call that got no answer at all (the connection closed under it): the page sends it again. */
class Unreachable extends Error {}

/** How long a page waits before sending a call that got no answer again (the editor's RETRY_MS). */
const RETRY_MS = 1000;

/** One logged-in account: its cookie and CSRF token on every call, and its event socket. */
class Session {
  cookie = '';
  csrf = '';
  socket: WebSocket | null = null;
  /** Job events with when they came (performance.now()). */
  readonly jobEvents: { type: string; jobId: string; at: number }[] = [];

  constructor(
    readonly base: string,
    readonly name: string,
  ) {}

  async login(): Promise<void> {
    const res = await fetch(`${this.base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: this.name, password: PASSWORD }),
    });
    if (!res.ok) throw new Error(`login as ${this.name}: ${res.status} ${await res.text()}`);
    this.cookie = res.headers.get('set-cookie')!.split(';')[0];
    this.csrf = ((await res.json()) as { account: { csrf: string } }).account.csrf;
    const ws = new WebSocket(`${this.base.replace(/^http/, 'ws')}/events`, { headers: { cookie: this.cookie, origin: this.base } });
    ws.on('message', (data) => {
      const e = JSON.parse(String(data)) as { type: string; jobId: string };
      if (e.type.startsWith('job.')) this.jobEvents.push({ ...e, at: performance.now() });
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    this.socket = ws;
  }

  /** A call's answer, or throws with the server's message; `requestId`: the same on each send of one change. */
  async call<T>(channel: string, input: unknown, requestId?: string): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.base}/api/${channel}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: this.cookie,
          'x-mekong-csrf': this.csrf,
          ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
        },
        body: JSON.stringify(input),
      });
    } catch (e) {
      const code = ((e as Error).cause as { code?: string } | undefined)?.code;
      throw new Unreachable(`${channel}: no answer (${code ?? (e as Error).message})`);
    }
    const body = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new Error(`${channel}: ${res.status} ${body.error ?? ''}`);
    return body;
  }

  openPair(pairId: number | null): void {
    this.socket?.send(JSON.stringify({ type: 'open', pairId }));
  }

  close(): void {
    this.socket?.close();
  }
}

interface EditorView {
  id: number;
  srcTokens: unknown[];
  tgtTokens: unknown[];
  gold: Link[];
}

const cells = (links: readonly Link[]) => links.map((l) => `${l.s}-${l.t}`).sort();

/** What one simulated annotator did: latencies, failures and, per pair, the gold last acknowledged. */
interface AnnotatorLog {
  name: string;
  edits: number[];
  undos: number;
  moves: number[];
  errors: string[];
  /** Calls sent again after getting no answer (as the editor does, with the same request id). */
  retries: number;
  acknowledged: Map<number, string[]>;
}

async function annotate(session: Session, pairIds: number[], until: number, random: () => number, thinkMs: number): Promise<AnnotatorLog> {
  const log: AnnotatorLog = { name: session.name, edits: [], undos: 0, moves: [], errors: [], retries: 0, acknowledged: new Map() };
  const pause = () => sleep(thinkMs * (0.5 + random()));
  let calls = 0;
  // a prefix of this annotator's request ids, random as the editor's page id is: the project file
  // keeps answered ids across server restarts, so ids numbered from 1 again in a later run of the
  // same accounts would be answered with that run's answers and run nothing
  const page = randomBytes(6).toString('hex');
  /** A call's answer and its time from the first send; sent again while unanswered, with the same request id. */
  const timed = async <T>(into: number[], work: (requestId: string) => Promise<T>): Promise<T | null> => {
    const t0 = performance.now();
    const requestId = `${session.name}-${page}-${++calls}`;
    for (let attempt = 0; ; attempt++) {
      try {
        const value = await work(requestId);
        into.push(performance.now() - t0);
        return value;
      } catch (e) {
        if (e instanceof Unreachable && attempt < 30) {
          log.retries++;
          await sleep(RETRY_MS);
          continue;
        }
        log.errors.push((e as Error).message.replace(/\d+/g, 'N'));
        return null;
      }
    }
  };
  for (let next = 0; performance.now() < until; next++) {
    const pairId = pairIds[next % pairIds.length];
    session.openPair(pairId);
    const opened = await timed(log.moves, () => session.call<EditorView>('editor.get', { pairId }));
    if (!opened) continue;
    let view: EditorView = opened;
    const actions = 1 + Math.floor(random() * 4);
    for (let a = 0; a < actions && performance.now() < until; a++) {
      await pause();
      if (random() < 0.15) {
        const undone = await timed(log.edits, (id) => session.call<{ pair: EditorView | null }>('edits.undo', {}, id));
        if (undone?.pair) {
          log.undos++;
          log.acknowledged.set(undone.pair.id, cells(undone.pair.gold));
          if (undone.pair.id === pairId) view = undone.pair;
        }
        continue;
      }
      const s = Math.floor(random() * view.srcTokens.length);
      const t = Math.floor(random() * view.tgtTokens.length);
      const had = view.gold.some((l) => l.s === s && l.t === t);
      const links = had ? view.gold.filter((l) => l.s !== s || l.t !== t) : [...view.gold, { s, t, kind: 'sure' as const, score: null }];
      const saved: EditorView | null = await timed(log.edits, (id) =>
        session.call<EditorView>('editor.setGold', { pairId, links, untranslated: [] }, id),
      );
      if (saved) {
        view = saved;
        log.acknowledged.set(pairId, cells(saved.gold));
      }
    }
  }
  session.openPair(null);
  return log;
}

/** Cells where the database's gold differs from the acknowledged state, over every pair each annotator touched. */
export function lostEdits(project: string, acknowledged: Map<string, Map<number, string[]>>): { pairs: number; lost: number } {
  const store = ProjectStore.open(project);
  try {
    const linksOf = pairLinksReader(store);
    let pairs = 0;
    let lost = 0;
    for (const [name, byPair] of acknowledged) {
      const goldId = goldIdOf(store, name);
      for (const [pairId, want] of byPair) {
        pairs++;
        const have = new Set(goldId === null ? [] : cells(linksOf(goldId, pairId)));
        const wanted = new Set(want);
        lost += want.filter((c) => !have.has(c)).length + [...have].filter((c) => !wanted.has(c)).length;
      }
    }
    return { pairs, lost };
  } finally {
    store.close();
  }
}

/** The pair ids of the project (teamProject's single import numbers them consecutively). */
function projectPairIds(project: string): number[] {
  const store = ProjectStore.open(project);
  try {
    const first = store.listPairs({}, { offset: 0 }, 1).pairs[0].id;
    return Array.from({ length: store.info().pairs }, (_, k) => first + k);
  } finally {
    store.close();
  }
}

export async function teamLoad(o: TeamLoadOptions): Promise<TeamLoadReport & { acknowledged: Map<string, Map<number, string[]>> }> {
  const ids = projectPairIds(o.project);
  const server = await serve(o.project);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRssMb(server.proc.pid!))), 1000);
  try {
    const manager = new Session(server.base, MANAGER);
    await manager.login();
    const sessions = Array.from({ length: o.clients }, (_, k) => new Session(server.base, annotatorName(k)));
    await Promise.all(sessions.map((s) => s.login()));
    const t0 = performance.now();
    const until = t0 + o.seconds * 1000;
    // each annotator works through its own slice of the project; the manager starts aligning
    // once they are at work (ALIGN_AFTER_MS), as a manager would during the working day
    const slice = Math.floor(ids.length / o.clients);
    const working = Promise.all(
      sessions.map((s, k) => annotate(s, ids.slice(k * slice, (k + 1) * slice), until, seeded(o.seed * 1000 + k), o.thinkMs)),
    );
    let align: TeamLoadReport['align'] = null;
    let jobId: string | null = null;
    if (o.alignMethod) {
      await sleep(Math.min(ALIGN_AFTER_MS, o.seconds * 100));
      const asked = performance.now();
      jobId = (await manager.call<{ jobId: string }>('align.start', { method: o.alignMethod })).jobId;
      align = { outcome: 'running', seconds: (performance.now() - t0) / 1000, startAnswerMs: performance.now() - asked };
    }
    const logs = await working;
    // the Align job is given until ALIGN_GRACE_MS after the annotators stop to end, then cancelled
    const endOf = () => manager.jobEvents.find((e) => e.jobId === jobId && e.type !== 'job.progress');
    for (const waitUntil = performance.now() + ALIGN_GRACE_MS; jobId && !endOf() && performance.now() < waitUntil;) await sleep(200);
    const ended = endOf();
    if (align && ended) align = { ...align, outcome: ended.type.replace('job.', ''), seconds: (ended.at - t0) / 1000 };
    else if (jobId) await manager.call('jobs.cancel', { jobId }).catch(() => undefined);
    for (const s of [manager, ...sessions]) s.close();
    peak = Math.max(peak, peakRssMb(server.proc.pid!));
    clearInterval(sampler);
    server.proc.kill('SIGTERM');
    await exited(server.proc);

    const acknowledged = new Map(logs.map((l) => [l.name, l.acknowledged]));
    const { pairs, lost } = lostEdits(o.project, acknowledged);
    const edits = logs.flatMap((l) => l.edits).sort((a, b) => a - b);
    const moves = logs.flatMap((l) => l.moves).sort((a, b) => a - b);
    const errors: Record<string, number> = {};
    for (const e of logs.flatMap((l) => l.errors)) errors[e] = (errors[e] ?? 0) + 1;
    return {
      clients: o.clients,
      seconds: o.seconds,
      edits: edits.length,
      undos: logs.reduce((n, l) => n + l.undos, 0),
      editP50: quantile(edits, 0.5),
      editP99: quantile(edits, 0.99),
      editMax: edits.at(-1) ?? NaN,
      moves: moves.length,
      moveP50: quantile(moves, 0.5),
      moveP99: quantile(moves, 0.99),
      errors,
      retries: logs.reduce((n, l) => n + l.retries, 0),
      pairsChecked: pairs,
      lost,
      serverPeakRssMb: peak,
      align,
      acknowledged,
    };
  } finally {
    clearInterval(sampler);
    if (server.proc.exitCode === null) {
      server.proc.kill('SIGKILL');
      await exited(server.proc);
    }
  }
}
