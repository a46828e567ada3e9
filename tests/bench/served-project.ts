// A project served as the app serves it, for the benches that measure the app through its API
// (edit-latency, app-scale; team-load measures the team server with its own sessions): the
// `mekong` CLI run as a user runs it, `mekong serve --project` in a child process with its
// per-run token, calls through the same HTTP dispatch the page uses, job outcomes read from
// the event socket, the editor's gold edits sent at a steady rate with their latencies, and
// the server's peak resident memory read from /proc.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import WebSocket from 'ws';
import type { JobEvent } from '../../src/shared/api.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The value at quantile q (0–1) of ascending `sorted` (NaN when empty). */
export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Runs `mekong ARGS` (bin/mekong.js of the tree `mekong` is in) to its end; its stdout, or throws with its output. */
export function runMekong(mekong: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, [mekong, ...args], { cwd: dirname(dirname(mekong)), encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`mekong ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r.stdout.trim();
}

/** A process and its descendants (Linux /proc). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1]);
      (children.get(ppid) ?? children.set(ppid, []).get(ppid)!).push(Number(d));
    } catch {
      // the process ended while being read
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** The largest peak resident size (VmHWM, MB) among a process and its descendants (its threads are in its own). */
export function peakRssMb(pid: number): number {
  let peak = 0;
  for (const p of processTree(pid)) {
    try {
      const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      // ended
    }
  }
  return peak;
}

export function exited(proc: ChildProcess): Promise<number | null> {
  return proc.exitCode !== null ? Promise.resolve(proc.exitCode) : new Promise((r) => proc.once('exit', (code) => r(code)));
}

/** `mekong serve --project P` (single user, annotator `bench`): its process, base URL and token. */
export function serveProject(mekong: string, project: string): Promise<{ proc: ChildProcess; base: string; token: string }> {
  const proc = spawn(process.execPath, [mekong, 'serve', '--project', project, '--port', '0', '--annotator', 'bench'], {
    cwd: dirname(dirname(mekong)),
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

/** One call of the API; its answer, or throws with the server's message. */
export async function callApi<T>(server: { base: string; token: string }, channel: string, input: unknown): Promise<T> {
  const r = await fetch(`${server.base}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mekong-token': server.token },
    body: JSON.stringify(input),
  });
  const body = (await r.json()) as T & { error?: string; message?: string };
  if (!r.ok) throw new Error(`${channel}: ${r.status} ${body.message ?? body.error ?? ''}`.trim());
  return body;
}

type JobEnd = Exclude<JobEvent, { type: 'job.progress' }>;

/** The server's event socket, kept open: how each job ended, as the page learns it. */
export class JobEvents {
  private readonly ends = new Map<string, JobEnd>();
  private readonly waiting = new Map<string, (e: JobEnd) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const e = JSON.parse(String(data)) as { type: string };
      if (!e.type.startsWith('job.') || e.type === 'job.progress') return;
      const end = e as JobEnd;
      this.ends.set(end.jobId, end);
      this.waiting.get(end.jobId)?.(end);
    });
  }

  static async open(server: { base: string; token: string }): Promise<JobEvents> {
    const ws = new WebSocket(`${server.base.replace(/^http/, 'ws')}/events?token=${server.token}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new JobEvents(ws);
  }

  /** How job `jobId` ended; throws unless it is done. */
  async done(jobId: string): Promise<Extract<JobEvent, { type: 'job.done' }>> {
    const end = this.ends.get(jobId) ?? (await new Promise<JobEnd>((r) => this.waiting.set(jobId, r)));
    if (end.type !== 'job.done') throw new Error(`job ${jobId} ${end.type.replace('job.', '')}: ${'error' in end ? end.error : ''}`);
    return end;
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * The editor's gold edits, one every `intervalMs` (editor.setGold of one sure link on pair
 * 1 + k·7919 mod `pairs`: pairs spread over the project, whose ids a fresh project numbers
 * from 1), each timed from send to the committed answer; only the ones sent while `recording`
 * is set are kept, with their failures by message.
 */
export class GoldEdits {
  readonly latencies: number[] = [];
  readonly failures = new Map<string, number>();
  recording = false;
  private running = true;
  private readonly loop: Promise<void>;

  constructor(server: { base: string; token: string }, pairs: number, intervalMs: number) {
    this.loop = (async () => {
      for (let k = 0; this.running; k++) {
        const started = performance.now();
        const recording = this.recording;
        const pairId = 1 + ((k * 7919) % pairs);
        let failure: string | null = null;
        try {
          await callApi(server, 'editor.setGold', { pairId, links: [{ s: 0, t: 0, kind: 'sure', score: null }], untranslated: [] });
        } catch (err) {
          failure = (err as Error).message;
        }
        const ms = performance.now() - started;
        if (recording) {
          this.latencies.push(ms);
          if (failure) this.failures.set(failure, (this.failures.get(failure) ?? 0) + 1);
        }
        await sleep(Math.max(0, intervalMs - ms));
      }
    })();
  }

  /** Stops sending; resolves once the last edit is answered. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** The recorded edits: count, failures, p50 / p99 / max latency in ms. */
  summary(): { edits: number; failed: number; p50: number; p99: number; max: number } {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      edits: sorted.length,
      failed: [...this.failures.values()].reduce((a, b) => a + b, 0),
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      max: sorted.at(-1) ?? NaN,
    };
  }
}
