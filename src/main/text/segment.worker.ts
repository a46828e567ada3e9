// Segmentation worker of SegmentPool, serving the job protocol's tasks (jobs/serve-worker.ts):
// builds its word lists once from workerData, replaces one on a 'words' task, and answers
// each 'chunk' of texts (normalised first when asked) with the token count per text, one
// flat offsets array for the whole chunk (both transferred, so no per-token object crosses
// the thread boundary) and the normalised texts that differ from their input.
import { workerData } from 'node:worker_threads';
import { serveWorker } from '../jobs/serve-worker.ts';
import { resolveLang } from './lang.ts';
import { normalizeText } from './normalize.ts';
import type { ChunkResult, PoolMessage, PoolWorkerData, Tokenization } from './segment-pool.ts';
import { pretokenizedInto, segmentInto } from './segment.ts';
import { WordList } from './word-list.ts';

const lists = new Map<string, WordList>();
for (const [lang, data] of Object.entries((workerData as PoolWorkerData).wordLists)) {
  lists.set(lang, WordList.fromData(data));
}

function tokenizeInto(text: string, lang: string, tokenization: Tokenization, out: number[]): void {
  if (tokenization === 'pretokenized') {
    pretokenizedInto(text, out);
    return;
  }
  const code = resolveLang(lang, text);
  segmentInto(text, code, out, { words: lists.get(code) });
}

function runChunk(msg: PoolMessage & { type: 'chunk' }): ChunkResult {
  const counts = new Uint32Array(msg.texts.length);
  const texts: (string | null)[] = new Array(msg.texts.length).fill(null);
  const out: number[] = [];
  msg.texts.forEach((raw, i) => {
    const text = msg.normalize ? normalizeText(raw) : raw;
    if (text !== raw) texts[i] = text;
    const before = out.length;
    tokenizeInto(text, msg.langs[i], msg.tokenization, out);
    counts[i] = (out.length - before) / 2;
  });
  return { counts, offsets: Uint32Array.from(out), texts };
}

serveWorker<PoolMessage, ChunkResult | null>(
  (msg) => {
    if (msg.type === 'chunk') return runChunk(msg);
    lists.set(msg.lang, WordList.fromData(msg.list));
    return null;
  },
  { transfer: (r) => (r ? [r.counts.buffer as ArrayBuffer, r.offsets.buffer as ArrayBuffer] : []) },
);
