// The interface every directional alignment model implements. A model turns the emission
// matrix of one sentence pair into link posteriors and keeps its own (non-lexical)
// parameters: alignment prior, jump distribution, null probability.
//
// Local layout of one pair (gen length I, obs length J): em[a*J + b] = t(o_b | g_a) for
// a < I and em[I*J + b] = tNull(o_b); post has the same layout, post[a*J + b] = p(b → a)
// and post[I*J + b] = p(b → null), so Σ_a post[a*J + b] = 1 for every b.
// Each training thread runs its own copy of a model over its slice of the pairs; the
// statistics of all copies are summed into one (takeStats / addStats) for update().

/** JSON-safe parameters, saved with a trained model. */
export interface ModelParams {
  kind: string;
  [key: string]: unknown;
}

/** Structured-clone-safe statistics of the pairs a model has seen, for update(). */
export type ModelStats = Record<string, unknown>;

export interface DirectionalModel {
  readonly kind: string;
  /** Fills `post` from `em`; when `learn`, adds this pair to the statistics for update(). */
  posteriors(em: Float64Array, I: number, J: number, post: Float64Array, learn: boolean): void;
  /** The statistics gathered since the last update or takeStats, handed over (and cleared). */
  takeStats(): ModelStats;
  /** Adds statistics another copy of this model gathered. */
  addStats(s: ModelStats): void;
  /** M-step of the model's own parameters from the statistics gathered since the last call. */
  update(): void;
  save(): ModelParams;
}
