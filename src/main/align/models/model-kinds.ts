// Registry of directional model kinds: name → constructor taking optional saved parameters.
import type { DirectionalModel, ModelParams } from '../directional-model.ts';
import { Hmm, type HmmParams } from './hmm.ts';
import { Ibm1 } from './ibm1.ts';
import { Ibm2, type Ibm2Params } from './ibm2.ts';

type Factory = (saved?: ModelParams) => DirectionalModel;

const MODELS: Record<string, Factory> = {
  ibm1: () => new Ibm1(),
  ibm2: (saved) => new Ibm2(saved as Partial<Ibm2Params> | undefined),
  hmm: (saved) => new Hmm(saved as Partial<HmmParams> | undefined),
};

export function createModel(kind: string, saved?: ModelParams): DirectionalModel {
  const f = Object.hasOwn(MODELS, kind) ? MODELS[kind] : undefined;
  if (!f) throw new Error(`unknown alignment model kind: ${kind}`);
  return f(saved);
}
