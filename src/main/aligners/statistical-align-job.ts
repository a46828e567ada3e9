// The statistical family's Align job over a project's pairs (align/project-align.ts runs it
// through the registry): the EM engine (align/engine.ts) on this thread, its EM on worker
// threads of its own, the gold links as evidence and the rejected ones as constraints; the
// dictionaries attached to the project (store/dictionaries.ts) act as a lexical prior, as
// `--dict` does in the CLI, and the model row and the job's summary name them. With `byCharacter`, the Chinese
// side(s) are aligned by character and the links mapped back to the project's words
// (align/by-character.ts). Decoded by posterior threshold (`post`), the links are decoded
// once at a low floor and cut to the threshold asked for (align/posterior-decode.ts). Every
// run stores in its model row how many links `post` gives at each threshold (the engine's
// count of cells by mean posterior, whatever the decoding; by character, the word links of a
// `post` run only, as cells are characters there), for the dialog's estimate of the next run.
import { alignCorpusByCharacter } from '../align/by-character.ts';
import { alignCorpusStreamed } from '../align/engine.ts';
import { cutToThreshold, decodeThreshold, isThresholdDecoding, linksAtLeast } from '../align/posterior-decode.ts';
import { symmetriser } from '../align/symmetrise.ts';
import { methodPlan } from '../align/train-plans.ts';
import { STATISTICAL_DEFAULTS } from '../../shared/aligner-defaults.ts';
import { UserError } from '../errors.ts';
import { withMessage } from '../jobs/job-context.ts';
import type { Link } from '../../shared/link-set.ts';
import type { LinkCountCurve } from '../../shared/link-count-curve.ts';
import { projectChineseSides, projectDictionary, type ProjectAligner } from './app-jobs.ts';

/** `dictionary "lo-th.tsv"`, `dictionaries "a", "b"` or `no dictionary`, for the job's summary. */
function usedDictionaries(names: string[]): string {
  if (names.length === 0) return 'no dictionary';
  return `${names.length === 1 ? 'dictionary' : 'dictionaries'} ${names.map((n) => JSON.stringify(n)).join(', ')}`;
}

export const statisticalAlignJob: ProjectAligner = {
  check(store, o) {
    if (o.layer !== undefined) throw new UserError(`a hidden layer is for the encoder methods, not ${o.method}`);
    if (o.tokenType !== undefined || o.nullAlign !== undefined || o.distortion !== undefined)
      throw new UserError(`the token type, null-align share and distortion are for the SimAlign methods, not ${o.method}`);
    methodPlan(o.method);
    symmetriser(o.sym);
    if (o.threshold !== undefined && !isThresholdDecoding(o.sym))
      throw new UserError(`a threshold is for the posterior decoding (post), not ${o.sym}`);
    if (o.byCharacter) projectChineseSides(store);
  },
  align: async (store, o, { corpus, gold, rejected }, ctx) => {
    const { entries, names: dictionaries } = projectDictionary(store, o.lowercase);
    const post = isThresholdDecoding(o.sym);
    const options = {
      method: o.method,
      sym: o.sym,
      threshold: post ? decodeThreshold(o.threshold) : undefined,
      lowercase: o.lowercase,
      dictionary: entries.length > 0 ? entries : undefined,
    };
    const hooks = {
      gold,
      rejected,
      ctx: withMessage(ctx, `aligning (${o.method})`),
    };
    const { src, tgt } = corpus;
    const threshold = post ? (o.threshold ?? STATISTICAL_DEFAULTS.threshold) : undefined;
    let links: Iterable<readonly Link[]>;
    let linkCurve: LinkCountCurve | undefined;
    if (o.byCharacter) {
      // Character cells are not word links: the curve of a `post` run is made from the word links.
      const result = await alignCorpusByCharacter(src, tgt, projectChineseSides(store), options, hooks);
      const cut = post ? cutToThreshold(result.links, o.threshold) : null;
      links = cut?.links ?? result.links;
      linkCurve = cut ? { ...cut.curve, method: result.curve.method, byCharacter: true } : undefined;
    } else {
      // Streamed: at 1M pairs, the 12M links as objects all at once (and their corrected
      // copies) took the server's peak from 1.2 GB to 2.6 GB (`npm run bench -- app-scale`).
      const result = await alignCorpusStreamed(src, tgt, options, hooks);
      links = threshold === undefined ? result.links : linksAtLeast(result.links, threshold);
      linkCurve = result.curve;
    }
    const settings = { method: o.method, sym: o.sym, threshold, lowercase: o.lowercase, byCharacter: o.byCharacter, linkCurve };
    const by = o.byCharacter ? ' by character' : '';
    const sym = post ? `${o.sym} ≥ ${threshold}` : o.sym;
    return {
      links,
      label: `${o.method} + ${sym}${by}`,
      model: {
        name: `${o.method} ${sym}${by}`,
        kind: 'statistical',
        config: dictionaries.length > 0 ? { ...settings, dictionaries } : settings,
      },
      summary: `${o.method} + ${sym}${by}, ${usedDictionaries(dictionaries)}`,
    };
  },
};
