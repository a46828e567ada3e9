// The app's Mine job (issue 18 item 4): proposes parallel pairs between two monolingual
// files for the linguist to review. The files are read line by line (blank lines skipped,
// line numbers kept), normalised and segmented as an import would be (the project's word
// lists, or split on spaces when pre-tokenised), checked against the project's languages;
// Bi-Sent2Vec (seed 002) and IBM1 tables are trained on the project's pairs (excluded ones
// left out), a tenth held out to find the margin threshold of best F1 unless one is given;
// pairs are proposed by the margin score of the sentence vectors' cosine plus the weighted
// IBM1 log-likelihood (seed 001 appendix B, each line in at most one pair:
// models/bisent2vec/curation.ts, eval/margin.ts). With a saved siamese head (seed 004), its
// encoder's vectors through the head replace Bi-Sent2Vec and the IBM1 term, nothing is
// trained, and the threshold is found on the project's dev and test pairs (all its pairs
// when it has too few of them: models/siamese/head-mining.ts); the run and its proposals are stored
// (store/mined-pairs.ts) for review. Nothing enters the corpus until the linguist adds
// the accepted proposals. Reading and segmenting the files run here (segmentation on its
// pool's threads); reading the project's pairs, the training and the scoring in a worker
// thread (curation.worker.ts).
import type { MineStartOptions } from '../../shared/mining-api.ts';
import { ByteProgress, readLineBatches } from '../corpus/input.ts';
import { InputError, UserError } from '../errors.ts';
import { checkCancelled, type JobContext, withMessage } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import { HELD_OUT_MIN, HELD_OUT_SHARE } from '../models/bisent2vec/curation.ts';
import { tokenTexts } from '../store/pair-corpus.ts';
import { saveMineRun } from '../store/mined-pairs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { projectWordLists } from '../store/word-lists.ts';
import { scriptMismatch } from '../text/lang.ts';
import { type PreparedText, SegmentPool } from '../text/segment-pool.ts';
import type { CurationTask, MineResult } from './curation.worker.ts';

/** Lines segmented per pool batch. */
const BATCH = 2000;

interface SideText {
  lines: number[];
  texts: PreparedText[];
}

/** The non-blank lines of both files (1-based line numbers), read with one progress over both. */
async function readSides(files: [string, string], ctx: JobContext): Promise<[number[], string[]][]> {
  const bytes = await ByteProgress.forFiles(files, withMessage(ctx, 'reading').progress);
  const sides: [number[], string[]][] = [];
  for (const file of files) {
    const lines: number[] = [],
      texts: string[] = [];
    for await (const batch of readLineBatches(file, bytes, ctx.signal))
      batch.lines.forEach((l, k) => {
        if (l.trim() === '') return;
        lines.push(batch.line + k);
        texts.push(l);
      });
    if (texts.length === 0) throw new UserError(`${file}: no sentences (the file is empty or blank)`);
    sides.push([lines, texts]);
  }
  return sides;
}

async function segmentSide(
  pool: SegmentPool,
  texts: string[],
  lang: string,
  o: MineStartOptions,
  signal?: AbortSignal,
): Promise<PreparedText[]> {
  const out: PreparedText[] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    checkCancelled(signal);
    out.push(
      ...(await pool.prepareBatch(
        texts.slice(i, i + BATCH).map((text) => ({ text, lang })),
        o.tokenization ?? 'segment',
      )),
    );
  }
  return out;
}

/** A file whose first sentences are not written like the project's language on its side is refused (as an import's are). */
function checkScript(file: string, lang: string, texts: readonly string[]): void {
  const why = scriptMismatch(lang, texts.slice(0, 200).join(' ').slice(0, 5000));
  if (why) throw new InputError(file, 0, `${why} (project: ${lang}); check the file or the project's languages`);
}

/** Runs the job; returns a one-line summary. */
export async function mineIntoProject(store: ProjectStore, o: MineStartOptions, ctx: JobContext): Promise<string> {
  const meta = store.meta();
  const pairs = store.countPairs({ excluded: false });
  const needed = o.threshold === undefined ? Math.ceil(HELD_OUT_MIN / HELD_OUT_SHARE) : 2;
  if (o.head === undefined && pairs < needed)
    throw new UserError(
      `mining learns sentence vectors from the project's pairs: ${needed} are needed${o.threshold === undefined ? ' to hold some out for the threshold (or give a threshold)' : ''}, this project has ${pairs}`,
    );
  const [[srcLines, srcRaw], [tgtLines, tgtRaw]] = await readSides([o.srcFile, o.tgtFile], ctx);
  if (!o.anyScript) {
    checkScript(o.srcFile, meta.srcLang, srcRaw);
    checkScript(o.tgtFile, meta.tgtLang, tgtRaw);
  }
  ctx.progress({ done: 0, total: 1, message: 'segmenting' });
  const pool = new SegmentPool({ wordLists: o.tokenization === 'pretokenized' ? {} : await projectWordLists(store) });
  let src: SideText, tgt: SideText;
  try {
    src = { lines: srcLines, texts: await segmentSide(pool, srcRaw, meta.srcLang, o, ctx.signal) };
    tgt = { lines: tgtLines, texts: await segmentSide(pool, tgtRaw, meta.tgtLang, o, ctx.signal) };
  } finally {
    await pool.close();
  }
  const words = (side: SideText) => side.texts.map((p) => tokenTexts(p.text, p.offsets, true));
  const task: CurationTask = {
    type: 'mine',
    projectPath: store.path,
    src: words(src),
    tgt: words(tgt),
    threshold: o.threshold,
    ...(o.head !== undefined ? { head: o.head } : {}),
  };
  const { mined, threshold, thresholdSource } = await runInWorker<CurationTask, MineResult>(
    new URL('./curation.worker.ts', import.meta.url),
    task,
    ctx,
  );
  const runId = saveMineRun(
    store,
    { srcFile: o.srcFile, tgtFile: o.tgtFile, srcLines: src.lines.length, tgtLines: tgt.lines.length, threshold, thresholdSource },
    mined.map((m) => ({
      srcLine: src.lines[m.src],
      tgtLine: tgt.lines[m.tgt],
      srcText: src.texts[m.src].text,
      tgtText: tgt.texts[m.tgt].text,
      srcOffsets: src.texts[m.src].offsets,
      tgtOffsets: tgt.texts[m.tgt].offsets,
      score: m.score,
    })),
  );
  return `mining run ${runId}: ${mined.length} pairs proposed from ${src.lines.length} × ${tgt.lines.length} sentences (threshold ${threshold.toFixed(3)}, ${thresholdSource})`;
}
