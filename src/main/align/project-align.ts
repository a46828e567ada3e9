// The app's Align job: aligns every visible pair of a project with the statistical
// engine (engine.ts), keeping all gold links fixed as evidence and never proposing a
// link a linguist rejected, then stores the result as a new model alignment with each
// link's posterior as its score (one model row records method and settings).
import type { Link } from '../../shared/domain.ts';
import type { Progress } from '../jobs/job-registry.ts';
import { createAlignment, linkInserter } from '../store/alignments.ts';
import { iteratePairRows, offsetsOf } from '../store/pairs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { alignCorpus } from './engine.ts';
import type { PairLink } from './constraints.ts';

export interface ProjectAlignOptions {
  method: string;
  sym: string;
  lowercase?: boolean;
}

interface Loaded {
  ids: number[];
  src: string[][];
  tgt: string[][];
}

function tokenTexts(text: string, blob: Buffer): string[] {
  const o = offsetsOf(blob);
  const out = new Array<string>(o.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = text.slice(o[2 * i], o[2 * i + 1]);
  return out;
}

function loadPairs(store: ProjectStore): Loaded {
  const loaded: Loaded = { ids: [], src: [], tgt: [] };
  for (const rows of iteratePairRows(store.db, {}, 5000)) {
    for (const r of rows) {
      loaded.ids.push(r.id);
      loaded.src.push(tokenTexts(r.src_text, r.src_tokens));
      loaded.tgt.push(tokenTexts(r.tgt_text, r.tgt_tokens));
    }
  }
  return loaded;
}

/** Per pair (in `ids` order), the links of `sql` (pair_id, s, t rows). */
function linksByPair(store: ProjectStore, ids: number[], sql: string): (PairLink[] | undefined)[] {
  const index = new Map(ids.map((id, k) => [id, k]));
  const out: (PairLink[] | undefined)[] = new Array(ids.length);
  for (const r of store.db.prepare(sql).iterate() as IterableIterator<{ pair_id: number; s: number; t: number }>) {
    const k = index.get(r.pair_id);
    if (k !== undefined) (out[k] ??= []).push({ s: r.s, t: r.t });
  }
  return out;
}

/** Runs the job; returns a one-line summary. */
export async function alignProject(store: ProjectStore, o: ProjectAlignOptions, run: { progress?: Progress; signal?: AbortSignal } = {}): Promise<string> {
  const { ids, src, tgt } = loadPairs(store);
  const gold = linksByPair(store, ids, `SELECT DISTINCT l.pair_id, l.s, l.t FROM links l JOIN alignments a ON a.id = l.alignment_id WHERE a.origin = 'gold'`);
  const rejected = linksByPair(store, ids, `SELECT pair_id, s, t FROM rejected_links`);
  const result = await alignCorpus(src, tgt, { method: o.method, sym: o.sym, lowercase: o.lowercase },
    { gold, rejected, signal: run.signal, onProgress: (done, total) => run.progress?.(done, total, `aligning (${o.method})`) });
  const when = new Date().toISOString();
  const count = store.db.transaction(() => {
    const model = store.db.prepare(`INSERT INTO models (name, kind, config, created_at) VALUES (?, 'statistical', ?, ?)`)
      .run(`${o.method} ${o.sym}`, JSON.stringify(o), when);
    const alignmentId = createAlignment(store.db, { origin: 'model', name: `${o.method} + ${o.sym} (${when.slice(0, 16).replace('T', ' ')})`, modelId: Number(model.lastInsertRowid) });
    const insert = linkInserter(store.db, alignmentId);
    let n = 0;
    result.links.forEach((links: Link[], k) => {
      insert(ids[k], links);
      n += links.length;
    });
    return n;
  })();
  return `aligned ${ids.length} pairs with ${o.method} + ${o.sym}: ${count} links`;
}
