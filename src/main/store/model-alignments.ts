// A model's alignment of the project, stored one way whoever made it: the Align job (any
// family: a new untrained model row records the method and its settings), re-alignment with
// a trained run's checkpoint (its model and run), and an import's model or imported links
// (with the import, so that a failed import takes them along).
//
// A job's alignment is written in short transactions (bounded-writes.ts, interleaved: the
// jobs store it on the thread that serves the editor) so that editors are never blocked while
// a large one is stored, and yet it is complete or absent: it is staged
// under an unfinished import of its own, which hides it from every reader (alignments.ts)
// and which opening the project deletes whole when the process died; one short transaction
// at the end makes it seen, with the model row that made it. The review queue's summaries of
// its links are made as it is written (link-summaries.ts).
import type { Calibration } from '../../shared/calibration-report.ts';
import type { Link } from '../../shared/domain.ts';
import { createAlignment, linkInserter, setCalibration } from './alignments.ts';
import { writeInSlices } from './bounded-writes.ts';
import { dbOf, type Project } from './connection.ts';
import { ALIGNMENT_FORMAT, beginImport, discardImport, finishImport } from './imports.ts';
import { keepSummaries, summarise, SummaryColumns } from './link-summaries.ts';
import { createUntrainedModel } from './training-runs.ts';

export interface NewModelAlignment {
  /** the alignment's name as the app lists it */
  name: string;
  /** 'import': links an import brought from a file; default 'model' */
  origin?: 'model' | 'import';
  /** the trained model and run that made it */
  modelId?: number;
  runId?: number;
  /** a model that is not trained (statistical, pretrained encoder): a new model row records what made the links */
  untrainedModel?: { name: string; kind: 'statistical' | 'encoder'; config: unknown };
  /** the import that brings it */
  importId?: number;
  /** how its scores were calibrated */
  calibration?: Calibration;
}

/** Creates the alignment (and its model row); `write` adds one pair's links. Call both inside a transaction. */
export function modelAlignmentWriter(
  project: Project,
  a: NewModelAlignment,
): { alignmentId: number; write: (pairId: number, links: readonly Link[]) => void } {
  const modelId = a.untrainedModel
    ? createUntrainedModel(project, a.untrainedModel.name, a.untrainedModel.kind, a.untrainedModel.config)
    : a.modelId;
  const alignmentId = createAlignment(project, {
    origin: a.origin ?? 'model',
    name: a.name,
    modelId,
    runId: a.runId,
    importId: a.importId,
  });
  if (a.calibration) setCalibration(project, alignmentId, a.calibration);
  return { alignmentId, write: linkInserter(project, alignmentId) };
}

/**
 * Stores a whole alignment, pair ids[k]'s links being linksOf(k) (made as each slice is
 * written, so a caller's conversion does not hold the thread either), staged as the header says;
 * a failure or a cancel (`signal`, between two transactions) deletes what was written.
 * Returns how many links were stored.
 */
export async function storeModelAlignment(
  project: Project,
  a: Omit<NewModelAlignment, 'importId'>,
  ids: readonly number[],
  linksOf: (k: number) => readonly Link[],
  signal?: AbortSignal,
): Promise<number> {
  const db = dbOf(project);
  const stage = beginImport(project, a.name, ALIGNMENT_FORMAT);
  let ok = false;
  try {
    const { alignmentId, write } = db.transaction(() =>
      modelAlignmentWriter(project, { ...a, untrainedModel: undefined, importId: stage }),
    )();
    let n = 0;
    const summaries = new SummaryColumns();
    await writeInSlices(
      project,
      ids.keys(),
      (k) => {
        const links = linksOf(k);
        write(ids[k], links);
        if (links.length) summaries.add(ids[k], summarise(links));
        n += links.length;
      },
      // on the thread that serves the editor (the Align and Re-align jobs): short slices
      { signal, interleaved: true },
    );
    void finishImport(project, stage, true, () => {
      if (a.untrainedModel) {
        const { name, kind, config } = a.untrainedModel;
        const modelId = createUntrainedModel(project, name, kind, config);
        db.prepare(`UPDATE alignments SET model_id = ? WHERE id = ?`).run(modelId, alignmentId);
      }
    });
    keepSummaries(project, alignmentId, summaries);
    ok = true;
    return n;
  } finally {
    // What a failed deletion leaves stays unseen, for the next opening of the project to delete.
    if (!ok) await discardImport(project, stage).catch(() => {});
  }
}
