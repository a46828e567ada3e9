// The statistical family's Align job over a project's pairs (align/project-align.ts runs it
// through the registry): the EM engine (align/engine.ts) on this thread, its EM on worker
// threads of its own, the gold links as evidence and the rejected ones as constraints; the
// dictionaries attached to the project (store/dictionaries.ts) act as a lexical prior, as
// `--dict` does in the CLI, and the model row and the job's summary name them. With `byCharacter`, the Chinese
// side(s) are aligned by character and the links mapped back to the project's words
// (align/by-character.ts).
import { alignCorpusByCharacter } from '../align/by-character.ts';
import { alignCorpus } from '../align/engine.ts';
import { symmetriser } from '../align/symmetrise.ts';
import { methodPlan } from '../align/train-plans.ts';
import { UserError } from '../errors.ts';
import { withMessage } from '../jobs/job-context.ts';
import { projectChineseSides, projectDictionary, type ProjectAligner } from './app-jobs.ts';

/** `dictionary "lo-th.tsv"`, `dictionaries "a", "b"` or `no dictionary`, for the job's summary. */
function usedDictionaries(names: string[]): string {
  if (names.length === 0) return 'no dictionary';
  return `${names.length === 1 ? 'dictionary' : 'dictionaries'} ${names.map((n) => JSON.stringify(n)).join(', ')}`;
}

export const statisticalAlignJob: ProjectAligner = {
  check(store, o) {
    if (o.layer !== undefined) throw new UserError(`a hidden layer is for the encoder methods, not ${o.method}`);
    methodPlan(o.method);
    symmetriser(o.sym);
    if (o.byCharacter) projectChineseSides(store);
  },
  align: async (store, o, { corpus, gold, rejected }, ctx) => {
    const { entries, names: dictionaries } = projectDictionary(store, o.lowercase);
    const options = { method: o.method, sym: o.sym, lowercase: o.lowercase, dictionary: entries.length > 0 ? entries : undefined };
    const hooks = {
      gold,
      rejected,
      ctx: withMessage(ctx, `aligning (${o.method})`),
    };
    const { src, tgt } = corpus;
    const result = await (o.byCharacter
      ? alignCorpusByCharacter(src, tgt, projectChineseSides(store), options, hooks)
      : alignCorpus(src, tgt, options, hooks));
    const settings = { method: o.method, sym: o.sym, lowercase: o.lowercase, byCharacter: o.byCharacter };
    const by = o.byCharacter ? ' by character' : '';
    return {
      links: result.links,
      label: `${o.method} + ${o.sym}${by}`,
      model: {
        name: `${o.method} ${o.sym}${by}`,
        kind: 'statistical',
        config: dictionaries.length > 0 ? { ...settings, dictionaries } : settings,
      },
      summary: `${o.method} + ${o.sym}${by}, ${usedDictionaries(dictionaries)}`,
    };
  },
};
