// Segmentation worker of SegmentPool: builds its word lists once from workerData, then
// answers each chunk of texts with the token count per text and one flat offsets array for
// the whole chunk (both transferred, so no per-token object crosses the thread boundary).
import { parentPort, workerData } from 'node:worker_threads';
import { resolveLang } from './lang.ts';
import type { ChunkResult, PoolMessage, PoolWorkerData } from './segment-pool.ts';
import { segmentInto } from './segment.ts';
import { WordList } from './word-list.ts';

const lists = new Map<string, WordList>();
for (const [lang, words] of Object.entries((workerData as PoolWorkerData).wordLists)) {
  lists.set(lang, WordList.fromWords(words));
}

function segmentChunk(id: number, texts: string[], langs: string[]): ChunkResult {
  const counts = new Uint32Array(texts.length);
  const out: number[] = [];
  for (let i = 0; i < texts.length; i++) {
    const lang = resolveLang(langs[i], texts[i]);
    const before = out.length;
    segmentInto(texts[i], lang, out, { words: lists.get(lang) });
    counts[i] = (out.length - before) / 2;
  }
  return { id, counts, offsets: Uint32Array.from(out) };
}

parentPort!.on('message', (msg: PoolMessage) => {
  if (msg.type === 'words') {
    lists.set(msg.lang, WordList.fromWords(msg.words));
    return;
  }
  try {
    const reply = segmentChunk(msg.id, msg.texts, msg.langs);
    parentPort!.postMessage(reply, [reply.counts.buffer as ArrayBuffer, reply.offsets.buffer as ArrayBuffer]);
  } catch (e) {
    parentPort!.postMessage({ id: msg.id, error: e instanceof Error ? e.message : String(e) });
  }
});
