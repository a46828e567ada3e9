// The app's Align job, one for every family that aligns without training a run: it reads the
// project's visible pairs, asks the method's aligner for their links, applies the linguists'
// corrections (corrections.ts: every gold link kept, no rejected link proposed) and stores
// the result as a new model alignment with each link's score (store/model-alignments.ts; a
// model row records the method and its settings).
// - Statistical methods (engine.ts) run here: their EM runs on worker threads of its own and
//   uses the gold links as evidence; the dictionaries attached to the project
//   (store/dictionaries.ts) act as a lexical prior, as `--dict` does in the CLI, and the
//   model row names them. With `byCharacter`, the Chinese side(s) are aligned by character
//   and the links mapped back to the project's words (by-character.ts).
// - Methods over the project's pretrained encoder folder (SimAlign, awesome-align,
//   PMI-Align) run in a worker thread (train/encoder.worker.ts: its ONNX sessions would block
//   the server's thread), extracting the links from the word similarities of hidden state
//   `layer`, each link's probability as its score.
import type { DeviceSetting } from '../../shared/device-settings.ts';
import type { Link } from '../../shared/domain.ts';
import { capabilitiesOf, type EncoderMethodName } from '../../shared/methods.ts';
import { UserError } from '../errors.ts';
import { type JobContext, silentContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import { attachedDictionaryTexts } from '../store/dictionaries.ts';
import { encoderDir } from '../store/encoder-folder.ts';
import { storeModelAlignment, type NewModelAlignment } from '../store/model-alignments.ts';
import { goldByPair, loadCorpus, type ProjectCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { chineseSides, type CharSides } from '../text/han-characters.ts';
import type { EncoderAlignResult, EncoderTask } from '../train/encoder.worker.ts';
import { alignCorpusByCharacter } from './by-character.ts';
import { goldAsLinks, withCorrections } from './corrections.ts';
import { parseDictionaryText, type DictEntry } from './dictionary.ts';
import { alignCorpus } from './engine.ts';

export interface ProjectAlignOptions {
  method: string;
  sym: string;
  lowercase?: boolean;
  /** statistical methods: align the Chinese side(s) by character */
  byCharacter?: boolean;
  /** encoder methods: the hidden state to align with (default the encoder's) */
  layer?: number;
  /** encoder methods: where the encoder's sessions run */
  device?: DeviceSetting;
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

/** The project's encoder folder; a user error when it names none. */
export function projectEncoderDir(store: ProjectStore): string {
  const dir = encoderDir(store);
  if (!dir) throw new UserError('this project names no encoder folder: set one in the Align dialog first');
  return dir;
}

/** What an aligner gave: pair k's links at index k, the alignment's record, and the job's summary. */
interface Aligned {
  links: readonly (readonly Link[])[];
  /** the alignment's name before its time stamp, and the model row that records what made it */
  label: string;
  model: NonNullable<NewModelAlignment['untrainedModel']>;
  /** "<method> …" for "aligned N pairs with <summary>: L links" */
  summary: string;
}

/** The statistical engine's links, on this thread (its EM on worker threads), the gold as evidence. */
async function statisticalLinks(
  store: ProjectStore,
  o: ProjectAlignOptions,
  corpus: ProjectCorpus,
  gold: readonly Link[][],
  rejected: ReturnType<typeof rejectedByPair>,
  ctx: JobContext,
): Promise<Aligned> {
  const attached = attachedDictionaryTexts(store);
  const entries = attachedEntries(attached, o.lowercase);
  const options = { method: o.method, sym: o.sym, lowercase: o.lowercase, dictionary: entries.length > 0 ? entries : undefined };
  const hooks = {
    gold,
    rejected,
    signal: ctx.signal,
    onProgress: (done: number, total: number) => ctx.progress({ done, total, message: `aligning (${o.method})` }),
  };
  const { src, tgt } = corpus;
  const result = await (o.byCharacter
    ? alignCorpusByCharacter(src, tgt, projectChineseSides(store), options, hooks)
    : alignCorpus(src, tgt, options, hooks));
  const dictionaries = attached.map((d) => d.name);
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
    summary: `${o.method} + ${o.sym}`,
  };
}

/** An encoder method's links over the project's encoder folder, in a worker thread. */
async function encoderLinks(store: ProjectStore, o: ProjectAlignOptions, corpus: ProjectCorpus, ctx: JobContext): Promise<Aligned> {
  const dir = projectEncoderDir(store);
  const method = o.method as EncoderMethodName;
  const task: EncoderTask = { type: 'align', dir, method, layer: o.layer, device: o.device, src: corpus.src, tgt: corpus.tgt };
  const r = await runInWorker<EncoderTask, EncoderAlignResult>(new URL('../train/encoder.worker.ts', import.meta.url), task, ctx);
  return {
    links: r.links,
    label: `${method} (layer ${r.layer})`,
    model: { name: `${method} layer ${r.layer}`, kind: 'encoder', config: { method, layer: r.layer, encoder: dir, device: r.device } },
    summary: `${method} over ${dir} (hidden state ${r.layer}, on ${r.device ?? 'cpu'})`,
  };
}

/** Runs the job; returns a one-line summary. */
export async function alignProject(store: ProjectStore, o: ProjectAlignOptions, ctx: JobContext = silentContext()): Promise<string> {
  const corpus = loadCorpus(store, false);
  const { ids } = corpus;
  const gold = goldByPair(store, ids).map(goldAsLinks);
  const rejected = rejectedByPair(store, ids);
  const aligned = capabilitiesOf(o.method).pretrainedEncoder
    ? await encoderLinks(store, o, corpus, ctx)
    : await statisticalLinks(store, o, corpus, gold, rejected, ctx);
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const count = storeModelAlignment(
    store,
    { name: `${aligned.label} (${when})`, untrainedModel: aligned.model },
    ids,
    ids.map((_, k) => withCorrections(aligned.links[k] ?? [], gold[k], rejected[k])),
  );
  return `aligned ${ids.length} pairs with ${aligned.summary}: ${count} links`;
}
