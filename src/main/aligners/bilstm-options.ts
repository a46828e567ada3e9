// The BiLSTM methods' configuration from their options (bilstmOptionsSchema,
// shared/aligner-options.ts), the one place both the CLI's flags and the Models page's
// TrainOptions become a NeuralConfig: the options given override the method's preset and
// the objective weights of a supervised run (methodConfig, models/bilstm/method.ts);
// epochs and self-training epochs left out are the defaults for the corpus size
// (shared/epochs.ts). `completed` writes the values used back into the options, so a run's
// stored config says what it trained with.
import { BILSTM_CONFIG_OPTIONS, type BilstmOptions } from '../../shared/aligner-options.ts';
import type { DeviceSetting } from '../../shared/device-settings.ts';
import { defaultEpochs, defaultSelfTrainEpochs } from '../../shared/epochs.ts';
import { methodInfo, type NeuralMethodName } from '../../shared/methods.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import { methodConfig } from '../models/bilstm/method.ts';
import { DEFAULT_CONFIG, type NeuralConfig } from '../models/bilstm/bilstm-train.ts';

/** The options that configure the network and its training, each a field of NeuralConfig too. */
const CONFIG_OPTIONS = BILSTM_CONFIG_OPTIONS satisfies readonly (keyof NeuralConfig)[];
type ConfigOptions = Pick<BilstmOptions, (typeof CONFIG_OPTIONS)[number]>;

/** The configuration the given options set (those left out keep the defaults), with the device. */
export function bilstmOverrides(o: Partial<ConfigOptions> & { device?: DeviceSetting }): Partial<NeuralConfig> {
  const out: Partial<NeuralConfig> = {};
  for (const key of CONFIG_OPTIONS) if (o[key] !== undefined) Object.assign(out, { [key]: o[key] });
  if (o.device !== undefined) out.device = o.device;
  return out;
}

const isBilstm = (method: string): method is NeuralMethodName => methodInfo(method)?.family === 'bilstm';

/** The full configuration of a Models page run on `pairs` training pairs, supervised (gold, pseudo or rejected links) or not. */
export function neuralConfig(o: TrainOptions, supervised: boolean, pairs: number): NeuralConfig {
  if (!isBilstm(o.method)) throw new Error(`neuralConfig: ${o.method} is not a BiLSTM method`);
  const { epochs, ...given } = bilstmOverrides(o);
  return { ...DEFAULT_CONFIG, ...methodConfig(o.method, supervised, given), epochs: epochs ?? defaultEpochs(pairs) };
}

/** The self-training epochs of a run: as given, else the default for the corpus size unless pseudo-labels or a checkpoint to continue from say how it is supervised. */
export function selfTrainEpochsOf(o: TrainOptions, pairs: number): number {
  return o.selfTrainEpochs ?? defaultSelfTrainEpochs(pairs, { pseudoLabels: o.pseudoAlignmentId !== undefined, continued: !!o.startFrom });
}

/** The options with every configuration value the run trained with. */
export function completed(o: TrainOptions, c: NeuralConfig): TrainOptions {
  const used = Object.fromEntries(CONFIG_OPTIONS.map((key) => [key, key === 'weights' ? { ...c.weights } : c[key]]));
  return { ...o, ...used };
}
