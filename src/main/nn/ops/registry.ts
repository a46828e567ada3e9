// The op registry: one entry per primitive, holding its shape/dtype rule and its
// vector-Jacobian product (VJP) written in graph ops, JAX style. Op files register their
// entries with `defop` right under the op's user-facing function.
import type { Attrs, Shape, Value } from '../graph.ts';
import type { DType } from '../tensor.ts';

export interface OutType {
  dtype: DType;
  shape: Shape;
}

export interface VjpArgs {
  readonly inputs: readonly (Value | null)[];
  readonly outputs: readonly Value[];
  /** Cotangent of each output; null where nothing downstream needs it. */
  readonly cts: readonly (Value | null)[];
  /** The cotangent of output 0 (the common case); throws if absent. */
  readonly ct: Value;
  /** Which inputs need a gradient; rules may skip building the others. */
  readonly needs: readonly boolean[];
  readonly attrs: Attrs;
}

/** One gradient (or null) per input; the engine checks the count. */
export type VjpRule = (a: VjpArgs) => (Value | null)[];

export interface OpDef {
  /** ONNX op_type when it differs from the registry name (e.g. StopGradient → Identity). */
  readonly onnx?: string;
  readonly infer: (inputs: readonly (Value | null)[], attrs: Attrs) => OutType[];
  /** Absent for ops whose outputs are not differentiable (indices, masks, shapes). */
  readonly vjp?: VjpRule;
  /** Not a pure function of its inputs (random): never merged with an identical node. */
  readonly impure?: boolean;
}

const registry = new Map<string, OpDef>();

export function defop(name: string, def: OpDef): void {
  if (registry.has(name)) throw new Error(`op ${name} registered twice`);
  registry.set(name, def);
}

export function getOp(name: string): OpDef {
  const def = registry.get(name);
  if (!def) throw new Error(`unknown op ${name} (is its module imported?)`);
  return def;
}

export function registeredOps(): string[] {
  return [...registry.keys()];
}
