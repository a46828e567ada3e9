// From the Models page's TrainOptions to the neural aligner's configuration, built by the
// method's one config builder (methodConfig, models/bilstm/method.ts) from the options the
// user set; epochs and self-training epochs the user left out are the defaults for the corpus
// size (shared/epochs.ts). `completed` writes the values used back into the options, so a
// run's stored config says what it trained with.
import type { TrainOptions } from '../../shared/models-api.ts';
import { defaultEpochs, defaultSelfTrainEpochs } from '../../shared/epochs.ts';
import { isNeuralMethod } from '../../shared/methods.ts';
import { methodConfig } from '../models/bilstm/method.ts';
import { DEFAULT_CONFIG, type NeuralConfig } from '../models/bilstm/train.ts';

export function neuralConfig(o: TrainOptions, supervised: boolean, pairs: number): NeuralConfig {
  const method = o.method;
  if (!isNeuralMethod(method)) throw new Error(`neuralConfig: ${method} is not a BiLSTM method`);
  const given = Object.fromEntries(
    Object.entries({
      weights: o.weights,
      ctlWeight: o.ctlWeight,
      temperature: o.temperature,
      dim: o.dim,
      lr: o.lr,
      batchSize: o.batchSize,
      wordDropout: o.wordDropout,
      device: o.device,
    }).filter(([, v]) => v !== undefined),
  ) as Partial<NeuralConfig>;
  return { ...DEFAULT_CONFIG, ...methodConfig(method, supervised, given), epochs: o.epochs ?? defaultEpochs(pairs) };
}

/** The self-training epochs of a run: as given, else the default for the corpus size unless pseudo-labels or a checkpoint to continue from say how it is supervised. */
export function selfTrainEpochsOf(o: TrainOptions, pairs: number): number {
  return o.selfTrainEpochs ?? defaultSelfTrainEpochs(pairs, { pseudoLabels: o.pseudoAlignmentId !== undefined, continued: !!o.startFrom });
}

export function completed(o: TrainOptions, c: NeuralConfig): TrainOptions {
  return {
    ...o,
    epochs: c.epochs,
    weights: { ...c.weights },
    ctlWeight: c.ctlWeight,
    temperature: c.temperature,
    dim: c.dim,
    lr: c.lr,
    batchSize: c.batchSize,
    wordDropout: c.wordDropout,
  };
}
