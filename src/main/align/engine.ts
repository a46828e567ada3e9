// The aligner engine used by the CLI and the app's Align job.
//
//   alignCorpus(src: Side, tgt: Side, options?: AlignOptions, hooks?: AlignHooks)
//     → Promise<{ links: Link[][]; model: SavedModel }>
//   alignCorpusStreamed(…same arguments)
//     → Promise<{ links: Iterable<Link[]>; model: SavedModel }>
//
// Sentence k of src / tgt (arrays of tokens, or Sentences read on demand) are pair k. options: method (see train-plans.ts; default the
// most accurate one meeting the speed goal), sym (symmetrisation),
// threshold (for sym 'post'), lowercase, dictionary (entries used as a lexical prior),
// identity (prior pseudo-count for identical words; defaults of both: STATISTICAL_DEFAULTS),
// model (a SavedModel: align with its parameters, no training). hooks: ctx (a JobContext:
// progress per EM iteration, its signal → CancelledError), onDecoded(seconds the last
// iteration's decoding took, summed over threads), onPhase as each phase ends,
// gold[k] (links of pair k used as evidence: their words align only as the gold says) and
// rejected[k] (cells given no probability in pair k). links[k] lists pair k's links sorted
// by (s, t), each with its posterior (mean of both directions); the gold is not added to
// them (corrections.ts withCorrections does that for whoever stores them). model holds the trained
// parameters for saveModel. alignCorpusStreamed is for a caller that writes the links out
// pair by pair (the CLI): each pair's Link objects are made as it is read, so dup100k's 1.25M
// link objects (~80 MB of heap, the peak of `mekong align` as they were made all at once)
// never exist together.
import type { Link } from '../../shared/domain.ts';
import { UserError } from '../errors.ts';
import { newBarrierState } from './barrier.ts';
import { buildConstraints, type ConstraintLinks, type Constraints } from './constraints.ts';
import { bitextArrays, buildBitext, type Bitext } from './corpus.ts';
import { linksOf, type DecodeOptions, type FlatLinks } from './decode.ts';
import type { DictEntry } from './dictionary.ts';
import type { SliceJob } from './em-slice.ts';
import { EmTrainer } from './em-trainer.ts';
import { STATISTICAL_DEFAULTS } from '../../shared/aligner-defaults.ts';
import { DEFAULT_METHOD } from '../../shared/methods.ts';
import { finalModel, methodPlan, type TrainPlan } from './train-plans.ts';
import { dictionaryPrior, identityPrior, sparsePrior } from './prior.ts';
import { IN_THREAD_CELLS, runInThread, runInWorkers, type SliceWorker, startWorkers, stopWorkers, type RunHooks } from './runner.ts';
import { mapLexicons, type SavedModel } from './statistical-model.ts';
import { lowercased, sentences, type Sentences, type Side } from './sentences.ts';
import { symmetriser } from './symmetrise.ts';
import { newLexCounts, newLexTables, toLexicon, type LexTables } from './translation-table.ts';
import { makeView } from './view.ts';

/**
 * Worker threads for large corpora, each training a slice of the pairs. Fixed rather than
 * one per core: the slices' counts are summed in a fixed order, so the links do not depend
 * on the machine.
 */
const WORKER_THREADS = 2;

export interface AlignOptions {
  method?: string;
  sym?: string;
  threshold?: number;
  lowercase?: boolean;
  dictionary?: DictEntry[];
  /** prior pseudo-count for word pairs with the same NFKC form (0 = off) */
  identity?: number;
  model?: SavedModel;
  /** force worker threads (true) or the calling thread (false); default by corpus size */
  workers?: boolean;
}

export interface AlignHooks extends RunHooks {
  gold?: ConstraintLinks;
  rejected?: ConstraintLinks;
  /** Called as each phase ends (the align bench times them and reads the memory they left). */
  onPhase?: (ended: AlignPhase) => void;
}

/** bitext: words to ids and cells; trained: EM of both directions, decoding and symmetrising in its last E-step, the threads stopped; links: the links as objects (alignCorpus). */
export type AlignPhase = 'bitext' | 'trained' | 'links';

export interface AlignResult {
  links: Link[][];
  model: SavedModel;
}

export interface StreamedAlignResult {
  /** pair k's links at the k-th step, made as they are read (once) */
  links: Iterable<Link[]>;
  model: SavedModel;
}

/** Throws a UserError for a gold or rejected link outside its pair. */
export function checkLinks(name: string, sets: ConstraintLinks | undefined, src: Sentences, tgt: Sentences): void {
  sets?.forEach((links, k) => {
    if (!links?.length) return;
    const I = k < src.length ? src.size(k) : 0,
      J = k < tgt.length ? tgt.size(k) : 0;
    for (const l of links) {
      if (!(l.s >= 0 && l.s < I && l.t >= 0 && l.t < J && Number.isInteger(l.s) && Number.isInteger(l.t)))
        throw new UserError(`${name} link ${l.s}-${l.t} of pair ${k + 1} is out of range (${I} source, ${J} target tokens)`);
    }
  });
}

/** Boundaries of `parts` slices with about equal numbers of cells (the E-step's work). */
function sliceBounds(b: Bitext, parts: number): number[] {
  const bounds = [0];
  for (let i = 1, k = 0; i < parts; i++) {
    const target = (b.cellOff[b.n] * i) / parts;
    while (k < b.n && b.cellOff[k] < target) k++;
    bounds.push(k);
  }
  bounds.push(b.n);
  return bounds;
}

function makeJobs(
  b: Bitext,
  plan: TrainPlan,
  constraints: Constraints,
  o: AlignOptions,
  decode: DecodeOptions,
  parts: number,
): { jobs: SliceJob[]; tables: LexTables } {
  const dict = o.dictionary ? dictionaryPrior(b, o.dictionary) : null;
  const idw = o.identity ?? STATISTICAL_DEFAULTS.identity;
  const pseudo = idw > 0 && !o.model ? identityPrior(b, dict ?? new Map(), idw) : dict;
  const prior = pseudo ? sparsePrior(pseudo) : null;
  const arrays = bitextArrays(b);
  const [srcTypes, tgtTypes] = [b.srcVocab.length, b.tgtVocab.length];
  const fwd = makeView(arrays, 'fwd', srcTypes, tgtTypes),
    rev = makeView(arrays, 'rev', srcTypes, tgtTypes);
  const tables = newLexTables(fwd, rev, o.model ? mapLexicons(o.model, b) : undefined);
  const counts = Array.from({ length: parts }, () => newLexCounts(fwd, rev, plan.agreement));
  const barrier = newBarrierState();
  const bounds = sliceBounds(b, parts);
  const jobs = counts.map((_, index) => ({
    arrays,
    srcTypes,
    tgtTypes,
    k0: bounds[index],
    k1: bounds[index + 1],
    index,
    tables,
    counts,
    constraints,
    prior,
    agreement: plan.agreement,
    decode,
    barrier,
  }));
  return { jobs, tables };
}

function planFor(o: AlignOptions): { name: string; plan: TrainPlan } {
  if (!o.model) {
    const name = o.method ?? DEFAULT_METHOD;
    return { name, plan: methodPlan(name) };
  }
  const saved = methodPlan(o.model.method);
  return { name: o.model.method, plan: { ...saved, stages: [{ model: finalModel(saved), iterations: 0 }] } };
}

function cellCount(src: Sentences, tgt: Sentences): number {
  let n = 0;
  for (let k = 0; k < src.length; k++) n += src.size(k) * tgt.size(k);
  return n;
}

export async function alignCorpus(srcSide: Side, tgtSide: Side, o: AlignOptions = {}, hooks: AlignHooks = {}): Promise<AlignResult> {
  const { flat, model } = await trainAndDecode(srcSide, tgtSide, o, hooks);
  const links = [...linksOf(flat)];
  hooks.onPhase?.('links');
  return { links, model };
}

/** alignCorpus for a caller that writes the links out pair by pair (header). */
export async function alignCorpusStreamed(
  srcSide: Side,
  tgtSide: Side,
  o: AlignOptions = {},
  hooks: AlignHooks = {},
): Promise<StreamedAlignResult> {
  const { flat, model } = await trainAndDecode(srcSide, tgtSide, o, hooks);
  return { links: linksOf(flat), model };
}

async function trainAndDecode(
  srcSide: Side,
  tgtSide: Side,
  o: AlignOptions,
  hooks: AlignHooks,
): Promise<{ flat: FlatLinks[]; model: SavedModel }> {
  const src = sentences(srcSide),
    tgt = sentences(tgtSide);
  if (src.length !== tgt.length) throw new UserError(`source has ${src.length} sentences but target has ${tgt.length}`);
  checkLinks('gold', hooks.gold, src, tgt);
  checkLinks('rejected', hooks.rejected, src, tgt);
  const workers = (o.workers ?? cellCount(src, tgt) > IN_THREAD_CELLS) ? startWorkers(WORKER_THREADS) : null;
  let trained: { flat: FlatLinks[]; model: SavedModel };
  try {
    trained = await train(src, tgt, o, hooks, workers);
  } finally {
    if (workers) await stopWorkers(workers);
  }
  hooks.onPhase?.('trained');
  return trained;
}

/** Trains on the corpus and decodes it; the bitext's arrays are garbage once this returns. */
async function train(
  src: Sentences,
  tgt: Sentences,
  o: AlignOptions,
  hooks: AlignHooks,
  workers: SliceWorker[] | null,
): Promise<{ flat: FlatLinks[]; model: SavedModel }> {
  const lower = o.model ? o.model.lowercase : (o.lowercase ?? false);
  const norm = (side: Sentences) => (lower ? lowercased(side) : side);
  const { name, plan } = planFor(o);
  const decode: DecodeOptions = { sym: o.sym ?? STATISTICAL_DEFAULTS.sym, threshold: o.threshold, agreed: plan.agreement };
  symmetriser(decode.sym);
  const b = buildBitext(norm(src), norm(tgt));
  const constraints = buildConstraints(b.n, hooks.gold, hooks.rejected);
  hooks.onPhase?.('bitext');
  const { jobs, tables } = makeJobs(b, plan, constraints, o, decode, workers ? workers.length : 1);
  const trainer = new EmTrainer(plan, o.model ? { fwd: o.model.fwd.params, rev: o.model.rev.params } : {});
  const flat = await (workers ? runInWorkers(workers, jobs, trainer, hooks) : runInThread(jobs[0], trainer, hooks));
  const params = trainer.params();
  const model: SavedModel = {
    method: name,
    lowercase: lower,
    srcVocab: b.srcVocab,
    tgtVocab: b.tgtVocab,
    pairSrc: b.pairSrc,
    pairTgt: b.pairTgt,
    fwd: { lex: toLexicon(tables, 'fwd'), params: params.fwd },
    rev: { lex: toLexicon(tables, 'rev'), params: params.rev },
  };
  return { flat, model };
}
