// What a Models-page fine-tuning run trains on and with, decided in its worker thread
// (encoder.worker.ts) from the project: the training set (project-data.ts, not lowercased:
// encoders keep case), the epochs the run makes (with a step cap, as many as the steps need;
// they name the last checkpoint's folder) and finetuneEncoder's options as `mekong finetune`
// builds them (aligners/finetune-options.ts). The server's thread gets back only the options
// as the run uses them and the set's counts (the worker's 'setup' report), which it records.
import { finetuneEpochs } from '../../shared/aligner-defaults.ts';
import type { Link } from '../../shared/domain.ts';
import type { AlignedPair } from '../../shared/link-set.ts';
import type { EncoderMethodName } from '../../shared/methods.ts';
import { checkpointRanking, type TrainOptions } from '../../shared/models-api.ts';
import { finetuneSettings } from '../aligners/finetune-options.ts';
import type { FinetuneOptions } from '../models/transformer/encoder-finetune.ts';
import type { ProjectStore } from '../store/project-store.ts';
import type { RunStats } from '../store/training-runs.ts';
import type { SelectBy } from './encoder-checkpoint-score.ts';
import { trainingSet } from './project-data.ts';
import { checkpointDir } from './run-files.ts';

export interface FinetuneRunSetup {
  /** the options as the run uses them (recorded with the run) */
  options: TrainOptions;
  stats: RunStats;
  /** finetuneEncoder's options, without the callbacks and checkpoints the worker supplies */
  finetune: Omit<FinetuneOptions, 'checkpoints' | 'onEvent'>;
  /** pairs each checkpoint is scored on, their gold, and the extraction that aligns them */
  eval: { src: string[][]; tgt: string[][]; gold: AlignedPair[]; method: EncoderMethodName };
  /** what ranks the checkpoints */
  selectBy: SelectBy;
}

/** The run of options `o` fine-tuning the encoder folder `encoder` on the project's pairs, its checkpoints in `runFolder`; `method` scores them. */
export function finetuneRunSetup(
  store: ProjectStore,
  given: TrainOptions,
  encoder: string,
  runFolder: string,
  method: EncoderMethodName,
): FinetuneRunSetup {
  const set = trainingSet(store, { ...given, lowercase: false });
  const { src, tgt } = set.corpus;
  const { epochs } = finetuneEpochs(src.length, { ...given.finetune, epochs: given.epochs });
  const o: TrainOptions = { ...given, lowercase: false, epochs };
  return {
    options: o,
    stats: set.stats,
    finetune: {
      encoder,
      src,
      tgt,
      gold: set.supervision.map((ls) => ls?.map((l): Link => ({ s: l.s, t: l.t, kind: 'sure', score: null })) ?? null),
      rejected: set.rejected.map((ls) => ls ?? null),
      out: checkpointDir(runFolder, epochs),
      ...finetuneSettings({ ...o.finetune, epochs, lr: o.lr }),
      threshold: o.threshold,
      device: o.device,
    },
    eval: { src: set.evalIndex.map((k) => src[k]), tgt: set.evalIndex.map((k) => tgt[k]), gold: set.evalGold, method },
    selectBy: checkpointRanking(o),
  };
}
