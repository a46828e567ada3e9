// Streaming text output shared by every writer: buffered writes with back-pressure, and
// all-or-nothing files (a path target is written to `<path>.partial-<pid>` and renamed on
// success; on error or cancel the partial file is removed and the target is untouched).
// A process killed mid-write cannot remove its partial file, so each new file written into a
// folder first removes the partial files there whose process is gone (the pid in the name).
import { createWriteStream, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { checkCancelled } from '../jobs/job-context.ts';
import type { PairRecord } from './record.ts';

/** A file path (written atomically) or an open stream (left open for the caller). */
export type WriteTarget = string | Writable;

export interface WriteOptions {
  signal?: AbortSignal;
}

/** The records a writer consumes. */
export type RecordSource = AsyncIterable<PairRecord> | Iterable<PairRecord>;

const FLUSH_AT = 1 << 18;

/** `text` with each line break replaced by a space, for line-per-pair formats. */
export const singleLine = (text: string): string => text.replace(/\r\n|[\r\n]/g, ' ');

const PARTIAL = /\.partial-(\d+)$/;

/** Whether process `pid` is alive (a pid of another user's process counts as alive). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the partial files in `folder` that a killed writer left (its process is gone). */
export function removeDeadPartials(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return; // the write itself reports a folder that cannot be read
  }
  for (const name of names) {
    const pid = PARTIAL.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !alive(Number(pid))) rmSync(join(folder, name), { force: true });
  }
}

/**
 * Buffered writes to one target; a stream error is rethrown by the next call. Text is encoded
 * as it comes into a buffer of FLUSH_AT bytes, which goes to the stream when full: no joined
 * copy of the pending text, and one write a quarter megabyte.
 */
export class TextSink {
  private buffer = Buffer.allocUnsafe(FLUSH_AT);
  private size = 0;
  private failure: Error | null = null;
  private readonly stream: Writable;
  private readonly partial: string | null;

  constructor(private readonly target: WriteTarget) {
    if (typeof target === 'string') removeDeadPartials(dirname(target));
    this.partial = typeof target === 'string' ? join(dirname(target), `${basename(target)}.partial-${process.pid}`) : null;
    // a file stream takes a few chunks before it asks to wait (its default: 16 KB, less than one),
    // so the next chunk is made while the last one is written
    this.stream = this.partial !== null ? createWriteStream(this.partial, { highWaterMark: 4 * FLUSH_AT }) : (target as Writable);
    this.stream.on('error', (err: Error) => (this.failure ??= err));
  }

  async write(text: string): Promise<void> {
    // a character takes at most 3 bytes in UTF-8 (a surrogate pair, 2 characters, takes 4)
    if (this.size + text.length * 3 > FLUSH_AT) {
      await this.flush();
      if (text.length * 3 > FLUSH_AT) {
        await this.send(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.size += this.buffer.write(text, this.size, 'utf8');
  }

  /** Bytes already encoded (JsonBytes.take), after the text before them; the sink keeps them until they are written, so the caller must not change them. */
  async writeBytes(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    await this.flush();
    await this.send(bytes);
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  private async send(chunk: Buffer): Promise<void> {
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  private async flush(): Promise<void> {
    this.check();
    if (this.size === 0) return;
    const chunk = this.buffer.subarray(0, this.size);
    // the stream keeps the chunk until it is written: the next text goes into a new buffer
    this.buffer = Buffer.allocUnsafe(FLUSH_AT);
    this.size = 0;
    await this.send(chunk);
  }

  /** Flushes; for a path target closes the file, then moves it into place. */
  async close(): Promise<void> {
    await this.flush();
    if (this.partial === null) return;
    const closed = once(this.stream, 'close');
    this.stream.end();
    await closed.catch(() => undefined);
    this.check();
    await rename(this.partial, this.target as string);
  }

  /** Drops buffered text; for a path target removes the partial file. */
  async abort(): Promise<void> {
    this.size = 0;
    if (this.partial === null) return;
    if (!this.stream.closed) {
      // Wait for the file to be closed: an open still in flight would re-create it.
      const closed = once(this.stream, 'close');
      this.stream.destroy();
      await closed.catch(() => undefined);
    }
    await rm(this.partial, { force: true });
  }
}

/** Runs `body` against sinks for `targets`, closing them all on success, aborting on error. */
export async function withSinks(targets: WriteTarget[], body: (sinks: TextSink[]) => Promise<void>): Promise<void> {
  const sinks = targets.map((t) => new TextSink(t));
  try {
    await body(sinks);
    for (const s of sinks) await s.close();
  } catch (err) {
    await Promise.all(sinks.map((s) => s.abort()));
    throw err;
  }
}

/** Writes `header`, one rendered string per record, then `footer` to one target. */
export async function writeRendered(
  records: RecordSource,
  target: WriteTarget,
  render: (rec: PairRecord, index: number) => string,
  opts: WriteOptions & { header?: string; footer?: string } = {},
): Promise<void> {
  await withSinks([target], async ([sink]) => {
    if (opts.header) await sink.write(opts.header);
    let i = 0;
    for await (const rec of records) {
      if ((i & 1023) === 0) checkCancelled(opts.signal);
      await sink.write(render(rec, i++));
    }
    checkCancelled(opts.signal);
    if (opts.footer) await sink.write(opts.footer);
  });
}
