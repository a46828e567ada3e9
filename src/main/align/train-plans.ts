// The statistical family's methods (shared/methods.ts names them; CLI --method, the app's
// Align job), each a training plan — a sequence of (model, EM iterations) stages sharing one
// lexicon per direction — plus the lexical prior and whether the two directions train in
// agreement.
import { UserError } from '../errors.ts';

export interface Stage {
  model: string;
  iterations: number;
}

export interface TrainPlan {
  stages: Stage[];
  /** train both directions on the product of their posteriors (Liang et al. 2006) */
  agreement: boolean;
}

export const STATISTICAL_PLANS: Readonly<Record<string, TrainPlan>> = {
  // Fewer iterations than plain EM: agreement converges faster, and on small corpora
  // further iterations overfit (3+3 beat 5+5 by 1–4 AER points on every gold set).
  agree: {
    stages: [
      { model: 'ibm1', iterations: 3 },
      { model: 'hmm', iterations: 3 },
    ],
    agreement: true,
  },
  ibm1: { stages: [{ model: 'ibm1', iterations: 5 }], agreement: false },
  ibm2: { stages: [{ model: 'ibm2', iterations: 5 }], agreement: false },
  hmm: {
    stages: [
      { model: 'ibm1', iterations: 5 },
      { model: 'hmm', iterations: 5 },
    ],
    agreement: false,
  },
};

export function methodPlan(name: string): TrainPlan {
  // Own keys only: `constructor` or `toString` must not reach the prototype.
  const plan = Object.hasOwn(STATISTICAL_PLANS, name) ? STATISTICAL_PLANS[name] : undefined;
  if (!plan) throw new UserError(`unknown method "${name}" (one of: ${Object.keys(STATISTICAL_PLANS).join(', ')})`);
  return plan;
}

/** The model kind a plan ends with (used to align with a saved model). */
export function finalModel(plan: TrainPlan): string {
  return plan.stages[plan.stages.length - 1].model;
}
