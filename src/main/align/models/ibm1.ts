// IBM Model 1: every obs word picks one of the I gen words or null uniformly,
//   p(a_b = a) = 1/(I+1),   so   p(a_b = a | o, g) = t(o_b|g_a) / Σ_a' t(o_b|g_a')
// (a' ranges over the I gen positions and null). No parameters besides the lexicon.
import type { DirectionalModel, ModelParams, ModelStats } from '../directional-model.ts';

export class Ibm1 implements DirectionalModel {
  readonly kind = 'ibm1';

  posteriors(em: Float64Array, I: number, J: number, post: Float64Array): void {
    for (let b = 0; b < J; b++) {
      let z = 0;
      for (let a = 0, x = b; a <= I; a++, x += J) z += em[x];
      const inv = z > 0 ? 1 / z : 0;
      for (let a = 0, x = b; a <= I; a++, x += J) post[x] = em[x] * inv;
    }
  }

  takeStats(): ModelStats {
    return {};
  }

  addStats(): void {}

  update(): void {}

  save(): ModelParams {
    return { kind: this.kind };
  }
}
