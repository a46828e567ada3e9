// The project's lexicon: every (source word, target word) pair linked somewhere, counted
// over the annotator's gold links and one model alignment's links; its concordance (every
// pair where both words occur, with the links between them); and the bulk fix, which adds
// or removes the gold link between the two words in all those pairs as one edit group
// (one undo reverses it all). Words are compared case-folded (toLowerCase).
import type { BulkChange, LexiconEntry, Occurrence } from '../../shared/editor-api.ts';
import type { Link } from '../../shared/domain.ts';
import { goldAlignmentOf } from './alignments.ts';
import type { Db } from './database.ts';
import { goldIdOf } from './gold-layer.ts';
import { recordGroup, type PairEdit } from './edits.ts';
import { iteratePairRows, offsetsOf, tokensOf, type PairRow } from './pairs.ts';

type At = { s: number; t: number };

function words(text: string, blob: Buffer): string[] {
  const o = offsetsOf(blob);
  const out = new Array<string>(o.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = text.slice(o[2 * i], o[2 * i + 1]).toLowerCase();
  return out;
}

/** The newest model alignment, when none is chosen. */
export function defaultModelId(db: Db): number | null {
  const row = db.prepare(`SELECT max(id) AS id FROM alignments WHERE origin = 'model'`).get() as { id: number | null };
  return row.id;
}

function linkMap(db: Db, alignmentId: number | null): Map<number, At[]> {
  const out = new Map<number, At[]>();
  if (alignmentId === null) return out;
  for (const r of db.prepare('SELECT pair_id, s, t FROM links WHERE alignment_id = ?').iterate(alignmentId) as IterableIterator<At & { pair_id: number }>) {
    let list = out.get(r.pair_id);
    if (!list) out.set(r.pair_id, (list = []));
    list.push({ s: r.s, t: r.t });
  }
  return out;
}

function visitPairs(db: Db, visit: (row: PairRow, src: string[], tgt: string[]) => void): void {
  for (const rows of iteratePairRows(db, {}, 2000)) for (const r of rows) visit(r, words(r.src_text, r.src_tokens), words(r.tgt_text, r.tgt_tokens));
}

export function lexiconEntries(db: Db, annotator: string, modelId: number | null, text: string, limit: number): LexiconEntry[] {
  const gold = linkMap(db, goldIdOf(db, annotator));
  const model = linkMap(db, modelId);
  const counts = new Map<string, LexiconEntry>();
  const count = (src: string[], tgt: string[], links: At[] | undefined, field: 'gold' | 'model') => {
    for (const l of links ?? []) {
      const key = `${src[l.s]}\t${tgt[l.t]}`;
      let e = counts.get(key);
      if (!e) counts.set(key, (e = { src: src[l.s], tgt: tgt[l.t], gold: 0, model: 0 }));
      e[field]++;
    }
  };
  visitPairs(db, (r, src, tgt) => {
    count(src, tgt, gold.get(r.id), 'gold');
    count(src, tgt, model.get(r.id), 'model');
  });
  const q = text.toLowerCase();
  return [...counts.values()]
    .filter((e) => !q || e.src.includes(q) || e.tgt.includes(q))
    .sort((a, b) => b.gold + b.model - (a.gold + a.model) || b.gold - a.gold || a.src.localeCompare(b.src) || a.tgt.localeCompare(b.tgt))
    .slice(0, limit);
}

function positions(list: string[], word: string): number[] {
  const out: number[] = [];
  list.forEach((w, i) => w === word && out.push(i));
  return out;
}

/** Every pair where both words occur, in pair id order. */
export function occurrences(db: Db, annotator: string, src: string, tgt: string, modelId: number | null): Occurrence[] {
  const gold = linkMap(db, goldIdOf(db, annotator));
  const model = linkMap(db, modelId);
  const [ws, wt] = [src.toLowerCase(), tgt.toLowerCase()];
  const out: Occurrence[] = [];
  visitPairs(db, (r, s, t) => {
    const srcAt = positions(s, ws), tgtAt = positions(t, wt);
    if (!srcAt.length || !tgtAt.length) return;
    const between = (l: At) => srcAt.includes(l.s) && tgtAt.includes(l.t);
    out.push({
      pairId: r.id, srcTokens: tokensOf(r.src_text, r.src_tokens), tgtTokens: tokensOf(r.tgt_text, r.tgt_tokens), srcAt, tgtAt,
      gold: (gold.get(r.id) ?? []).filter(between), model: (model.get(r.id) ?? []).filter(between),
    });
  });
  return out;
}

/** Links to add between the occurrences: each one to the other side's nearest occurrence (by relative position). */
export function linksToAdd(o: Occurrence): At[] {
  const ns = o.srcTokens.length, nt = o.tgtTokens.length;
  if (o.srcAt.length === o.tgtAt.length) return o.srcAt.map((s, k) => ({ s, t: o.tgtAt[k] }));
  const nearest = (x: number, n: number, options: number[], m: number) =>
    options.reduce((best, y) => (Math.abs(y / m - x / n) < Math.abs(best / m - x / n) ? y : best), options[0]);
  const found = new Map<string, At>();
  for (const s of o.srcAt) found.set(`${s}:${nearest(s, ns, o.tgtAt, nt)}`, { s, t: nearest(s, ns, o.tgtAt, nt) });
  for (const t of o.tgtAt) found.set(`${nearest(t, nt, o.srcAt, ns)}:${t}`, { s: nearest(t, nt, o.srcAt, ns), t });
  return [...found.values()];
}

function changeOf(o: Occurrence, action: 'add' | 'remove'): BulkChange {
  const has = new Set(o.gold.map((l) => `${l.s}:${l.t}`));
  return action === 'add'
    ? { pairId: o.pairId, add: linksToAdd(o).filter((l) => !has.has(`${l.s}:${l.t}`)), remove: [] }
    : { pairId: o.pairId, add: [], remove: o.gold };
}

/** The bulk fix's changes (one per pair it touches); applied as one edit group when `apply`. */
export function bulkFix(db: Db, annotator: string, src: string, tgt: string, action: 'add' | 'remove', apply: boolean): BulkChange[] {
  const changes = occurrences(db, annotator, src, tgt, null).map((o) => changeOf(o, action)).filter((c) => c.add.length + c.remove.length > 0);
  if (!apply || changes.length === 0) return changes;
  db.transaction(() => {
    const key = String(goldAlignmentOf(db, annotator));
    const current = db.prepare('SELECT s, t, kind, score FROM links WHERE alignment_id = ? AND pair_id = ? ORDER BY s, t');
    const edits: PairEdit[] = changes.map((c) => {
      const before = current.all(Number(key), c.pairId) as Link[];
      const removed = new Set(c.remove.map((l) => `${l.s}:${l.t}`));
      const after = [...before.filter((l) => !removed.has(`${l.s}:${l.t}`)), ...c.add.map((l) => ({ ...l, kind: 'sure' as const, score: null }))]
        .sort((a, b) => a.s - b.s || a.t - b.t);
      return { pairId: c.pairId, before: { links: { [key]: before } }, after: { links: { [key]: after } } };
    });
    recordGroup(db, annotator, 'lexicon.bulk', edits);
  })();
  return changes;
}
