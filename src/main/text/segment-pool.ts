// Parallel segmentation on worker_threads. A batch is cut into chunks (up to CHUNK_MAX texts,
// spread over all workers), each worker keeps at most two chunks in flight so it never idles
// between messages, and replies with token counts plus one flat offsets array per chunk
// (transferred). Results come back in input order. segmentBatch takes normalised text;
// prepareBatch takes raw text and also normalises in the workers (the import path: the
// caller's thread is left with parsing and SQLite writes). Word lists (keyed by language) are sent
// to every worker once at start, and again only when setWordList replaces one. Idle
// workers are unref'd, so a forgotten pool does not keep the process alive; close() waits
// for outstanding batches, then terminates the workers. The workers serve the job protocol's
// tasks (jobs/worker-host.ts WorkerClient).
import { availableParallelism } from 'node:os';
import type { Token } from '../../shared/domain.ts';
import { WorkerClient } from '../jobs/worker-host.ts';
import { canonicalLang } from './lang.ts';
import { decodeTokens } from './offsets.ts';
import type { WordList, WordListData } from './word-list.ts';

export interface SegmentItem {
  text: string;
  lang: string;
}

export interface SegmentPoolOptions {
  /** Number of workers; default os.availableParallelism(). */
  size?: number;
  /** Word lists by language code (lo, th, zh, ...), applied to texts of that language. */
  wordLists?: Record<string, WordList>;
}

/** How the pool tokenizes: segment() or pretokenized() (input already tokenized). */
export type Tokenization = 'segment' | 'pretokenized';

/** A text after prepareBatch: normalised, with its token offsets (offsets.ts). */
export interface PreparedText {
  text: string;
  offsets: Uint32Array;
}

export interface PoolWorkerData {
  wordLists: Record<string, WordListData>;
}

export type PoolMessage =
  | { type: 'chunk'; texts: string[]; langs: string[]; normalize: boolean; tokenization: Tokenization }
  | { type: 'words'; lang: string; list: WordListData };

/** Token count per text, the texts' token offsets concatenated, normalised texts (null: unchanged). */
export interface ChunkResult {
  counts: Uint32Array;
  offsets: Uint32Array;
  texts: (string | null)[];
}

type Job = Pick<PoolMessage & { type: 'chunk' }, 'normalize' | 'tokenization'>;

interface Task {
  message: PoolMessage & { type: 'chunk' };
  resolve: (reply: ChunkResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  client: WorkerClient<PoolMessage, ChunkResult | null>;
  /** chunks sent and not yet answered */
  running: number;
}

const CHUNK_MAX = 1000;
/**
 * Texts below which a batch is not spread over more workers: starting one costs about 0.7 s
 * of CPU, which a few hundred texts (a small import, a one-pair fix) do not repay.
 */
const CHUNK_MIN = 500;
const IN_FLIGHT_PER_WORKER = 2;

function keyOf(lang: string): string {
  return canonicalLang(lang) ?? lang;
}

export class SegmentPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private readonly outstanding = new Set<Promise<unknown>>();
  private closed = false;
  /** The most workers the pool starts (SegmentPoolOptions.size). */
  private readonly capacity: number;
  /** The word lists a worker starts with: the constructor's, as setWordList replaced them. */
  private readonly wordLists: Record<string, WordListData> = {};

  constructor(options: SegmentPoolOptions = {}) {
    this.capacity = Math.max(1, options.size ?? availableParallelism());
    for (const [lang, list] of Object.entries(options.wordLists ?? {})) this.wordLists[keyOf(lang)] = list.data();
    this.spawn();
  }

  /**
   * Starts one more worker. The pool starts with one and adds the others only when every
   * worker already has a chunk: a small import (one chunk) never boots the second.
   */
  private spawn(): Slot {
    // From source (CLI, browser mode, tests) the workers boot through tsx's CommonJS hook: a
    // pool of two answered its first texts after 219–293 ms instead of 415–491 ms through the
    // ESM loader (its thread per worker gone; 0.4 s less CPU, ~25 MB less RSS).
    const client = new WorkerClient<PoolMessage, ChunkResult | null>(new URL('./segment.worker.ts', import.meta.url), {
      workerData: { wordLists: this.wordLists },
      commonJs: true,
    });
    client.worker.unref();
    const slot = { client, running: 0 };
    this.slots.push(slot);
    return slot;
  }

  /** Workers started so far (one, until a batch has more chunks than the started workers take). */
  get started(): number {
    return this.slots.length;
  }

  /** The most workers this pool runs at once. */
  get size(): number {
    return this.capacity;
  }

  /** Tokens of each item, in input order. */
  async segmentBatch(items: readonly SegmentItem[]): Promise<Token[][]> {
    const offsets = await this.segmentBatchOffsets(items);
    return offsets.map((o, i) => decodeTokens(items[i].text, o));
  }

  /** Token offsets (offsets.ts encoding) of each item, in input order. */
  async segmentBatchOffsets(items: readonly SegmentItem[]): Promise<Uint32Array[]> {
    const prepared = await this.runBatch(items, { normalize: false, tokenization: 'segment' });
    return prepared.map((p) => p.offsets);
  }

  /**
   * Raw texts normalised (normalizeText) and tokenized in the workers, so the caller's
   * thread does neither; `tokenization` 'pretokenized' splits on whitespace only.
   */
  prepareBatch(items: readonly SegmentItem[], tokenization: Tokenization): Promise<PreparedText[]> {
    return this.runBatch(items, { normalize: true, tokenization });
  }

  /** Replaces the word list of `lang` in every worker (for batches sent after this call). */
  setWordList(lang: string, list: WordList): void {
    const message: PoolMessage = { type: 'words', lang: keyOf(lang), list: list.data() };
    this.wordLists[message.lang] = message.list;
    for (const slot of this.slots) slot.client.run(message).catch((e: Error) => this.fail(e));
  }

  /** Waits for outstanding batches, then stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.outstanding]);
    await Promise.all(this.slots.map((s) => s.client.close()));
  }

  private runBatch(items: readonly SegmentItem[], job: Job): Promise<PreparedText[]> {
    if (this.closed) return Promise.reject(new Error('segment pool is closed'));
    const chunk = Math.min(CHUNK_MAX, Math.max(CHUNK_MIN, Math.ceil(items.length / this.capacity)));
    const parts: Promise<PreparedText[]>[] = [];
    for (let from = 0; from < items.length; from += chunk) parts.push(this.run(items.slice(from, from + chunk), job));
    const all = Promise.all(parts).then((lists) => lists.flat());
    this.outstanding.add(all);
    const forget = () => this.outstanding.delete(all);
    all.then(forget, forget);
    return all;
  }

  private async run(items: SegmentItem[], job: Job): Promise<PreparedText[]> {
    const texts = items.map((x) => x.text);
    const reply = await new Promise<ChunkResult>((resolve, reject) => {
      this.queue.push({
        message: { type: 'chunk', texts, langs: items.map((x) => x.lang), ...job },
        resolve,
        reject,
      });
      this.dispatch();
    });
    const out: PreparedText[] = new Array(items.length);
    let at = 0;
    for (let i = 0; i < items.length; i++) {
      const end = at + 2 * reply.counts[i];
      out[i] = { text: reply.texts[i] ?? texts[i], offsets: reply.offsets.subarray(at, end) };
      at = end;
    }
    return out;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.reduce((a, b) => (b.running < a.running ? b : a));
      if (slot.running > 0 && this.slots.length < this.capacity) slot = this.spawn();
      if (slot.running >= IN_FLIGHT_PER_WORKER) return;
      const task = this.queue.shift()!;
      if (slot.running++ === 0) slot.client.worker.ref();
      slot.client.run(task.message).then(
        (reply) => {
          this.settled(slot);
          task.resolve(reply!);
        },
        (e: Error) => {
          this.settled(slot);
          task.reject(new Error(`segmentation failed: ${e.message}`));
        },
      );
    }
  }

  private settled(slot: Slot): void {
    if (--slot.running === 0) slot.client.worker.unref();
    this.dispatch();
  }

  /** A worker that failed (not a chunk's error: the thread): every waiting batch fails with it, and the pool takes no more. */
  private fail(error: Error): void {
    for (const task of this.queue.splice(0)) task.reject(error);
    this.closed = true;
  }
}
