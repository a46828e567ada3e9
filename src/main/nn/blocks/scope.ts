// Parameter naming and initialisation for blocks: a Scope is a name prefix on a Graph
// plus the seeded Rng and float dtype new parameters get. Calling a block twice with the
// same scope shares its weights (siamese towers).
import type { Graph, Value } from '../graph.ts';
import { constantInit, glorotUniform, normalInit, Rng } from '../init.ts';
import type { FloatDType } from '../tensor.ts';

export class Scope {
  constructor(
    readonly graph: Graph,
    readonly rng: Rng = new Rng(1),
    readonly dtype: FloatDType = 'float32',
    readonly prefix = '',
  ) {}

  sub(name: string): Scope {
    return new Scope(this.graph, this.rng, this.dtype, this.name(name));
  }

  name(n: string): string {
    return this.prefix ? `${this.prefix}.${n}` : n;
  }

  /** A weight matrix (Glorot-uniform). */
  weight(n: string, shape: number[]): Value {
    return this.graph.param(this.name(n), shape, () => glorotUniform(this.rng, shape, this.dtype));
  }

  /** A parameter filled with a constant (biases, LayerNorm γ/β). */
  filled(n: string, shape: number[], v: number): Value {
    return this.graph.param(this.name(n), shape, () => constantInit(shape, v, this.dtype));
  }

  /** A parameter drawn from N(0, std²) (embeddings). */
  normal(n: string, shape: number[], std: number): Value {
    return this.graph.param(this.name(n), shape, () => normalInit(this.rng, shape, std, this.dtype));
  }
}
