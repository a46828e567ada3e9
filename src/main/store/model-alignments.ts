// A model's alignment of the project, stored one way whoever made it: the Align job (any
// family: a new untrained model row records the method and its settings), re-alignment with
// a trained run's checkpoint (its model and run), and an import's model or imported links
// (with the import, so that a failed import takes them along).
import type { Calibration } from '../../shared/calibration-report.ts';
import type { Link } from '../../shared/domain.ts';
import { createAlignment, linkInserter, setCalibration } from './alignments.ts';
import { dbOf, type Project } from './connection.ts';
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

/** Stores a whole alignment in one transaction: pair ids[k]'s links are links[k]. Returns how many links were stored. */
export function storeModelAlignment(
  project: Project,
  a: NewModelAlignment,
  ids: readonly number[],
  links: readonly (readonly Link[])[],
): number {
  return dbOf(project).transaction(() => {
    const { write } = modelAlignmentWriter(project, a);
    let n = 0;
    links.forEach((ls, k) => {
      write(ids[k], ls);
      n += ls.length;
    });
    return n;
  })();
}
