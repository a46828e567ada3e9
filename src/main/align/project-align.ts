// The app's Align job: aligns every visible pair of a project with the statistical
// engine (engine.ts), keeping all gold links fixed as evidence and never proposing a
// link a linguist rejected, then stores the result as a new model alignment with each
// link's posterior as its score (one model row records method and settings). The
// dictionaries attached to the project (store/dictionaries.ts) act as a lexical prior,
// as `--dict` does in the CLI; the model row names them.
import type { Link } from '../../shared/domain.ts';
import type { Progress } from '../jobs/job-registry.ts';
import { createAlignment, linkInserter } from '../store/alignments.ts';
import { goldByPair, goldLinks, loadCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import { createStatisticalModel } from '../store/training-runs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { attachedDictionaryTexts } from '../store/dictionaries.ts';
import { parseDictionaryText } from './dictionary.ts';
import { alignCorpus } from './engine.ts';

export interface ProjectAlignOptions {
  method: string;
  sym: string;
  lowercase?: boolean;
}

/** Runs the job; returns a one-line summary. */
export async function alignProject(
  store: ProjectStore,
  o: ProjectAlignOptions,
  run: { progress?: Progress; signal?: AbortSignal } = {},
): Promise<string> {
  const { ids, src, tgt } = loadCorpus(store.db, false);
  const gold = goldByPair(store.db, ids).map((g) => g && goldLinks(g));
  const rejected = rejectedByPair(store.db, ids);
  const attached = attachedDictionaryTexts(store.db);
  const entries = attached.flatMap((d) => parseDictionaryText(d.text, `dictionary "${d.name}"`, { lowercase: o.lowercase }));
  const dictionary = entries.length > 0 ? entries : undefined;
  const result = await alignCorpus(
    src,
    tgt,
    { method: o.method, sym: o.sym, lowercase: o.lowercase, dictionary },
    { gold, rejected, signal: run.signal, onProgress: (done, total) => run.progress?.(done, total, `aligning (${o.method})`) },
  );
  const when = new Date().toISOString();
  const count = store.db.transaction(() => {
    const dictionaries = attached.map((d) => d.name);
    const modelId = createStatisticalModel(store.db, `${o.method} ${o.sym}`, dictionaries.length > 0 ? { ...o, dictionaries } : o);
    const alignmentId = createAlignment(store.db, {
      origin: 'model',
      name: `${o.method} + ${o.sym} (${when.slice(0, 16).replace('T', ' ')})`,
      modelId,
    });
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
