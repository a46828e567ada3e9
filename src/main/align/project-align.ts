// The app's Align job: aligns every visible pair of a project with the statistical
// engine (engine.ts), keeping all gold links fixed as evidence and never proposing a
// link a linguist rejected, then stores the result as a new model alignment with each
// link's posterior as its score (one model row records method and settings). The
// dictionaries attached to the project (store/dictionaries.ts) act as a lexical prior,
// as `--dict` does in the CLI; the model row names them. With `byCharacter`, the Chinese
// side(s) are aligned by character and the links mapped back to the project's words
// (by-character.ts).
import type { Link } from '../../shared/domain.ts';
import type { Progress } from '../jobs/job-registry.ts';
import { createAlignment, linkInserter } from '../store/alignments.ts';
import { goldByPair, goldLinks, loadCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import { createUntrainedModel } from '../store/training-runs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { attachedDictionaryTexts } from '../store/dictionaries.ts';
import { parseDictionaryText, type DictEntry } from './dictionary.ts';
import { alignCorpus } from './engine.ts';
import { alignCorpusByCharacter } from './by-character.ts';
import { chineseSides, type CharSides } from '../text/han-characters.ts';
import { UserError } from '../errors.ts';

export interface ProjectAlignOptions {
  method: string;
  sym: string;
  lowercase?: boolean;
  byCharacter?: boolean;
}

/** The entries of the project's attached dictionaries (all of them, read as the CLI's --dict reads a file). */
export function attachedEntries(attached: ReturnType<typeof attachedDictionaryTexts>, lowercase?: boolean): DictEntry[] {
  return attached.flatMap((d) => parseDictionaryText(d.text, `dictionary "${d.name}"`, { lowercase }));
}

/** The Chinese side(s) of the project, for aligning by character; a user error when it has none. */
export function projectChineseSides(store: ProjectStore): CharSides {
  const { srcLang, tgtLang } = store.meta();
  const sides = chineseSides(srcLang, tgtLang);
  if (!sides) throw new UserError(`aligning by character is for Chinese, and this project is ${srcLang}–${tgtLang}`);
  return sides;
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
  const entries = attachedEntries(attached, o.lowercase);
  const dictionary = entries.length > 0 ? entries : undefined;
  const options = { method: o.method, sym: o.sym, lowercase: o.lowercase, dictionary };
  const hooks = {
    gold,
    rejected,
    signal: run.signal,
    onProgress: (done: number, total: number) => run.progress?.(done, total, `aligning (${o.method})`),
  };
  const result = await (o.byCharacter
    ? alignCorpusByCharacter(src, tgt, projectChineseSides(store), options, hooks)
    : alignCorpus(src, tgt, options, hooks));
  const dictionaries = attached.map((d) => d.name);
  const label = `${o.method} + ${o.sym}${o.byCharacter ? ' by character' : ''}`;
  const count = storeModelAlignment(
    store,
    {
      name: `${o.method} ${o.sym}${o.byCharacter ? ' by character' : ''}`,
      kind: 'statistical',
      config: dictionaries.length > 0 ? { ...o, dictionaries } : o,
    },
    label,
    ids,
    result.links,
  );
  return `aligned ${ids.length} pairs with ${o.method} + ${o.sym}: ${count} links`;
}

/**
 * Stores an Align job's result in one transaction: a model row (what made it: kind and
 * settings), a new model alignment named `label` and the time, and every pair's links.
 * Returns how many links were stored.
 */
export function storeModelAlignment(
  store: ProjectStore,
  model: { name: string; kind: 'statistical' | 'encoder'; config: unknown },
  label: string,
  ids: readonly number[],
  links: readonly (readonly Link[])[],
): number {
  const when = new Date().toISOString();
  return store.db.transaction(() => {
    const modelId = createUntrainedModel(store.db, model.name, model.kind, model.config);
    const alignmentId = createAlignment(store.db, { origin: 'model', name: `${label} (${when.slice(0, 16).replace('T', ' ')})`, modelId });
    const insert = linkInserter(store.db, alignmentId);
    let n = 0;
    links.forEach((ls, k) => {
      insert(ids[k], ls);
      n += ls.length;
    });
    return n;
  })();
}
