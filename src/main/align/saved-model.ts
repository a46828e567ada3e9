// Trained parameters of both directions, keyed by word strings so they can align any new
// corpus: save to / load from a directory, and map onto a new Bitext's lexical pairs.
//
// Directory layout: model.json (method, lowercase, per-direction model parameters),
// vocab.src / vocab.tgt (one word per line, line n = id n), pairs.i32 (source id, target id
// per lexical pair, little-endian int32), {fwd,rev}.t.f32 (t per pair) and
// {fwd,rev}.null.f32 (tNull per obs word id: target ids for fwd, source ids for rev).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import type { Bitext } from './corpus.ts';
import type { ModelParams } from './directional-model.ts';
import type { Lexicon } from './translation-table.ts';
import { PairTable } from './pair-table.ts';

/** One direction's trained parameters. */
export interface DirectionResult {
  lex: Lexicon;
  params: ModelParams;
}

export interface SavedModel {
  method: string;
  lowercase: boolean;
  srcVocab: string[];
  tgtVocab: string[];
  pairSrc: Int32Array;
  pairTgt: Int32Array;
  fwd: DirectionResult;
  rev: DirectionResult;
}

/** Probability given to word pairs the saved model never saw together. */
export const UNSEEN = 1e-7;

function bytes(a: Int32Array | Float32Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

export function saveModel(dir: string, m: SavedModel): void {
  mkdirSync(dir, { recursive: true });
  const meta = { format: 'mekong-align-model/1', method: m.method, lowercase: m.lowercase, fwd: m.fwd.params, rev: m.rev.params };
  writeFileSync(join(dir, 'model.json'), JSON.stringify(meta, null, 2));
  writeFileSync(join(dir, 'vocab.src'), m.srcVocab.join('\n'));
  writeFileSync(join(dir, 'vocab.tgt'), m.tgtVocab.join('\n'));
  const pairs = new Int32Array(2 * m.pairSrc.length);
  for (let p = 0; p < m.pairSrc.length; p++) {
    pairs[2 * p] = m.pairSrc[p];
    pairs[2 * p + 1] = m.pairTgt[p];
  }
  writeFileSync(join(dir, 'pairs.i32'), bytes(pairs));
  for (const d of ['fwd', 'rev'] as const) {
    writeFileSync(join(dir, `${d}.t.f32`), bytes(m[d].lex.t));
    writeFileSync(join(dir, `${d}.null.f32`), bytes(m[d].lex.tNull));
  }
}

function readTyped<T>(path: string, make: (b: ArrayBuffer) => T): T {
  const buf = readFileSync(path);
  return make(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

export function loadModel(dir: string): SavedModel {
  let meta: { format?: string; method: string; lowercase: boolean; fwd: DirectionResult['params']; rev: DirectionResult['params'] };
  try {
    meta = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
  } catch (err) {
    throw new UserError(`${dir}: not a saved alignment model (${(err as Error).message})`);
  }
  if (meta.format !== 'mekong-align-model/1') throw new UserError(`${dir}: unknown model format ${meta.format}`);
  const vocab = (f: string) => readFileSync(join(dir, f), 'utf8').split('\n');
  const pairs = readTyped(join(dir, 'pairs.i32'), (b) => new Int32Array(b));
  const n = pairs.length / 2;
  const pairSrc = new Int32Array(n),
    pairTgt = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    pairSrc[p] = pairs[2 * p];
    pairTgt[p] = pairs[2 * p + 1];
  }
  const dirResult = (d: 'fwd' | 'rev'): DirectionResult => ({
    params: meta[d],
    lex: {
      t: readTyped(join(dir, `${d}.t.f32`), (b) => new Float32Array(b)),
      tNull: readTyped(join(dir, `${d}.null.f32`), (b) => new Float32Array(b)),
    },
  });
  const [srcVocab, tgtVocab] = [vocab('vocab.src'), vocab('vocab.tgt')];
  return {
    method: meta.method,
    lowercase: meta.lowercase,
    srcVocab,
    tgtVocab,
    pairSrc,
    pairTgt,
    fwd: dirResult('fwd'),
    rev: dirResult('rev'),
  };
}

function idMap(from: string[], to: string[]): Int32Array {
  const index = new Map<string, number>();
  to.forEach((w, i) => index.set(w, i));
  return Int32Array.from(from, (w) => index.get(w) ?? -1);
}

/** The saved lexicons of both directions re-indexed by `b`'s lexical pairs and vocabularies. */
export function mapLexicons(m: SavedModel, b: Bitext): { fwd: Lexicon; rev: Lexicon } {
  const sMap = idMap(b.srcVocab, m.srcVocab),
    tMap = idMap(b.tgtVocab, m.tgtVocab);
  const table = new PairTable();
  for (let p = 0; p < m.pairSrc.length; p++) table.intern(m.pairSrc[p], m.pairTgt[p]);
  const n = b.pairSrc.length;
  const fwd = { t: new Float32Array(n).fill(UNSEEN), tNull: new Float32Array(b.tgtVocab.length).fill(UNSEEN) };
  const rev = { t: new Float32Array(n).fill(UNSEEN), tNull: new Float32Array(b.srcVocab.length).fill(UNSEEN) };
  for (let p = 0; p < n; p++) {
    const s = sMap[b.pairSrc[p]],
      t = tMap[b.pairTgt[p]];
    const q = s >= 0 && t >= 0 ? table.get(s, t) : -1;
    if (q < 0) continue;
    fwd.t[p] = m.fwd.lex.t[q];
    rev.t[p] = m.rev.lex.t[q];
  }
  tMap.forEach((q, id) => q >= 0 && (fwd.tNull[id] = m.fwd.lex.tNull[q]));
  sMap.forEach((q, id) => q >= 0 && (rev.tNull[id] = m.rev.lex.tNull[q]));
  return { fwd, rev };
}
