// The aligner engine used by the CLI and the app's Align job.
//
//   alignCorpus(src: Side, tgt: Side, options?: AlignOptions, hooks?: AlignHooks)
//     → Promise<{ links: Link[][]; model: SavedModel }>
//   alignCorpusStreamed(…same arguments)
//     → Promise<{ links: Iterable<Link[]>; model: SavedModel | null }>
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
// parameters for saveModel; alignCorpusStreamed makes it only when asked (keepModel): without
// it, the last E-step gathers no counts and no M-step follows it (that M-step alone took
// 0.19–0.23 s of a dup100k run).
// alignCorpusStreamed is for a caller that writes the links out
// pair by pair (the CLI): each pair's Link objects are made as it is read, so dup100k's 1.25M
// link objects (~80 MB of heap, the peak of `mekong align` as they were made all at once)
// never exist together.
// Memory: the corpus is read once, in order, and kept in a temporary folder (corpus-file.ts:
// word ids and cells, block by block), which the training threads read back every
// iteration; the links go to files there too (decode.ts) and are read back pair by pair.
// What stays in memory grows with the vocabularies and the word pairs (translation tables,
// counts, pair ids), not with the number of pairs. The folder is removed once the links are
// read, or on a failure or cancel (and at the latest when the process exits; a killed
// process's folder goes with the next alignment a day later).
import type { Link } from '../../shared/domain.ts';
import { UserError } from '../errors.ts';
import { newBarrierState } from './barrier.ts';
import { buildConstraints, type ConstraintLinks, type Constraints } from './constraints.ts';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLECT_FROM_CELLS, sliceBounds, writeCorpusFile, type CorpusFile } from './corpus-file.ts';
import { collectGarbage } from './collect-garbage.ts';
import { linksOf, type DecodeOptions, type LinkFile } from './decode.ts';
import { CURVE_FLOOR, emptyCounts, type LinkCountCurve } from '../../shared/link-count-curve.ts';
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
  /** alignCorpusStreamed: make the trained model (for saveModel); alignCorpus always does */
  keepModel?: boolean;
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
  /** the posterior decoding's link count at each threshold on these pairs, whatever decoding was asked (link-count-curve.ts) */
  curve: LinkCountCurve;
}

export interface StreamedAlignResult {
  /** pair k's links at the k-th step, made as they are read (once) */
  links: Iterable<Link[]>;
  /** null unless options.keepModel */
  model: SavedModel | null;
  curve: LinkCountCurve;
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

function makeJobs(
  c: CorpusFile,
  plan: TrainPlan,
  constraints: Constraints,
  o: AlignOptions,
  decode: DecodeOptions,
  parts: number,
  dir: string,
): { jobs: SliceJob[]; tables: LexTables } {
  const dict = o.dictionary ? dictionaryPrior(c, o.dictionary) : null;
  const idw = o.identity ?? STATISTICAL_DEFAULTS.identity;
  const pseudo = idw > 0 && !o.model ? identityPrior(c, dict ?? new Map(), idw) : dict;
  const prior = pseudo ? sparsePrior(pseudo) : null;
  const { srcVocab: _s, tgtVocab: _t, ...corpus } = c;
  const fwd = makeView(corpus, 'fwd'),
    rev = makeView(corpus, 'rev');
  const tables = newLexTables(fwd, rev, o.model ? mapLexicons(o.model, c) : undefined);
  const counts = Array.from({ length: parts }, () => newLexCounts(fwd, rev, plan.agreement));
  const barrier = newBarrierState();
  const bounds = sliceBounds(corpus, parts);
  const jobs = counts.map((_, index) => ({
    corpus,
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
    linksFile: join(dir, `links-${index}`),
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

const FOLDER_PREFIX = 'mekong-align-';

/** Folders of alignments whose process was killed (no exit handler ran): removed after a day. */
function removeStaleFolders(): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const d of readdirSync(tmpdir())) {
    if (!d.startsWith(FOLDER_PREFIX)) continue;
    try {
      const path = join(tmpdir(), d);
      if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // another process removed it first
    }
  }
}

/** A temporary folder for one alignment, removed by remove() or when the process exits. */
class TempFolder {
  readonly path: string;
  private readonly onExit = () => this.remove();

  constructor() {
    removeStaleFolders();
    this.path = mkdtempSync(join(tmpdir(), FOLDER_PREFIX));
    process.once('exit', this.onExit);
  }

  remove(): void {
    process.off('exit', this.onExit);
    rmSync(this.path, { recursive: true, force: true });
  }
}

export async function alignCorpus(srcSide: Side, tgtSide: Side, o: AlignOptions = {}, hooks: AlignHooks = {}): Promise<AlignResult> {
  const { links: read, model, curve } = await trainAndDecode(srcSide, tgtSide, { ...o, keepModel: true }, hooks);
  const links = [...read];
  hooks.onPhase?.('links');
  return { links, model: model!, curve };
}

/** alignCorpus for a caller that writes the links out pair by pair (header). */
export async function alignCorpusStreamed(
  srcSide: Side,
  tgtSide: Side,
  o: AlignOptions = {},
  hooks: AlignHooks = {},
): Promise<StreamedAlignResult> {
  return trainAndDecode(srcSide, tgtSide, o, hooks);
}

/** The links of `files`, pair by pair; the folder goes once they are read (or the reader stops). */
function* readLinks(files: readonly LinkFile[], folder: TempFolder): Generator<Link[]> {
  try {
    yield* linksOf(files);
  } finally {
    folder.remove();
  }
}

async function trainAndDecode(srcSide: Side, tgtSide: Side, o: AlignOptions, hooks: AlignHooks): Promise<StreamedAlignResult> {
  const src = sentences(srcSide),
    tgt = sentences(tgtSide);
  if (src.length !== tgt.length) throw new UserError(`source has ${src.length} sentences but target has ${tgt.length}`);
  checkLinks('gold', hooks.gold, src, tgt);
  checkLinks('rejected', hooks.rejected, src, tgt);
  const workers = (o.workers ?? cellCount(src, tgt) > IN_THREAD_CELLS) ? startWorkers(WORKER_THREADS) : null;
  const folder = new TempFolder();
  let trained: { files: LinkFile[]; model: SavedModel | null };
  try {
    try {
      trained = await train(src, tgt, o, hooks, workers, folder.path);
    } finally {
      if (workers) await stopWorkers(workers);
    }
  } catch (err) {
    folder.remove();
    throw err;
  }
  hooks.onPhase?.('trained');
  const counts = emptyCounts();
  for (const f of trained.files) f.meanCounts.forEach((n, b) => (counts[b] += n));
  const curve = { method: planFor(o).name, pairs: src.length, floor: CURVE_FLOOR, counts };
  return { links: readLinks(trained.files, folder), model: trained.model, curve };
}

/** Trains on the corpus (kept in `dir` while it runs) and decodes it into link files in `dir`. */
async function train(
  src: Sentences,
  tgt: Sentences,
  o: AlignOptions,
  hooks: AlignHooks,
  workers: SliceWorker[] | null,
  dir: string,
): Promise<{ files: LinkFile[]; model: SavedModel | null }> {
  const lower = o.model ? o.model.lowercase : (o.lowercase ?? false);
  const norm = (side: Sentences) => (lower ? lowercased(side) : side);
  const { name, plan } = planFor(o);
  const decode: DecodeOptions = { sym: o.sym ?? STATISTICAL_DEFAULTS.sym, threshold: o.threshold, agreed: plan.agreement };
  symmetriser(decode.sym);
  const c = writeCorpusFile(norm(src), norm(tgt), dir);
  try {
    const constraints = buildConstraints(c.n, hooks.gold, hooks.rejected);
    hooks.onPhase?.('bitext');
    const { jobs, tables } = makeJobs(c, plan, constraints, o, decode, workers ? workers.length : 1, dir);
    // this thread allocates next to nothing while the slices run EM, so nothing would collect
    // what the setup left dead (dup100k: 30 MB more through the whole EM in one run of three)
    if (c.cells >= COLLECT_FROM_CELLS) collectGarbage();
    const keepModel = o.keepModel ?? false;
    const trainer = new EmTrainer(plan, o.model ? { fwd: o.model.fwd.params, rev: o.model.rev.params } : {}, { keepModel });
    const files = await (workers ? runInWorkers(workers, jobs, trainer, hooks) : runInThread(jobs[0], trainer, hooks));
    if (!keepModel) return { files, model: null };
    const params = trainer.params();
    const model: SavedModel = {
      method: name,
      lowercase: lower,
      srcVocab: c.srcVocab,
      tgtVocab: c.tgtVocab,
      pairSrc: c.pairSrc,
      pairTgt: c.pairTgt,
      fwd: { lex: toLexicon(tables, 'fwd'), params: params.fwd },
      rev: { lex: toLexicon(tables, 'rev'), params: params.rev },
    };
    return { files, model };
  } finally {
    rmSync(c.idsFile, { force: true });
    rmSync(c.cellsFile, { force: true });
  }
}
