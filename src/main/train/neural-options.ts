// From the Models page's TrainOptions to the neural aligner's configuration: the method's
// preset (models/bilstm/method.ts), the supervised objective weights (train.ts) when the run has any
// word-level signal (gold, pseudo or rejected links; the rejected-link loss rides on the
// WTR weight), then the options the user set. `completed` writes the values used back
// into the options, so a run's stored config says what it trained with.
import type { TrainOptions } from '../../shared/models-api.ts';
import { NEURAL_METHODS } from '../models/bilstm/method.ts';
import { DEFAULT_CONFIG, type NeuralConfig, SUPERVISED_WEIGHTS } from '../models/bilstm/train.ts';

export function neuralConfig(o: TrainOptions, supervised: boolean): NeuralConfig {
  const c: NeuralConfig = { ...DEFAULT_CONFIG, ...NEURAL_METHODS[o.method], ...(supervised ? { weights: SUPERVISED_WEIGHTS } : {}), epochs: o.epochs };
  const set = <K extends keyof NeuralConfig>(key: K, value: NeuralConfig[K] | undefined) => {
    if (value !== undefined) c[key] = value;
  };
  set('weights', o.weights);
  set('ctlWeight', o.ctlWeight);
  set('temperature', o.temperature);
  set('dim', o.dim);
  set('lr', o.lr);
  set('batchSize', o.batchSize);
  set('wordDropout', o.wordDropout);
  set('device', o.device);
  return c;
}

export function completed(o: TrainOptions, c: NeuralConfig): TrainOptions {
  return { ...o, weights: { ...c.weights }, ctlWeight: c.ctlWeight, temperature: c.temperature, dim: c.dim, lr: c.lr, batchSize: c.batchSize, wordDropout: c.wordDropout };
}
