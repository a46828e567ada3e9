// The tensor-graph builder: Values (typed, shaped edges) produced by Nodes (op applications).
// A Graph is built by calling op functions from ops/ on Values; every op application is
// checked and shape-inferred by its registry entry, so a mistake fails where it is made,
// not inside onnxruntime. Shapes are static numbers or symbolic names ('batch').
// The op registry lives here too (at the end): graph building consults it for every node,
// and its entries speak of Values, so as two files they imported each other.
import { type DType, type FloatDType, int64s, Tensor } from './tensor.ts';

export type Dim = number | string;
export type Shape = readonly Dim[];

/**
 * An attribute: integers and int lists by default; floats wrapped as {f} / {floats}.
 * Names starting with '_' are builder-only hints (output shapes of ops whose shape comes
 * from a run-time tensor) and are not written to ONNX.
 */
export type Attr = number | number[] | string | { f: number } | { floats: number[] } | { shapes: Shape[] } | Tensor;
export type Attrs = Readonly<Record<string, Attr>>;

export interface Node {
  readonly op: string;
  readonly inputs: readonly (Value | null)[];
  readonly outputs: readonly Value[];
  readonly attrs: Attrs;
}

export class Value {
  constructor(
    readonly graph: Graph,
    readonly name: string,
    readonly dtype: DType,
    readonly shape: Shape,
    readonly producer: Node | null,
  ) {}

  get rank(): number {
    return this.shape.length;
  }

  /** Dimension `axis` (negative counts from the end). */
  dim(axis: number): Dim {
    return this.shape[axis < 0 ? this.rank + axis : axis];
  }

  toString(): string {
    return `${this.name}:${this.dtype}[${this.shape.join(',')}]`;
  }
}

/** A trainable parameter: a graph input with its initial value. */
export interface Param {
  readonly value: Value;
  readonly init: Tensor;
}

export class Graph {
  readonly nodes: Node[] = [];
  readonly inputs: Value[] = [];
  readonly initializers = new Map<string, Tensor>();
  /** Trainable parameters, in declaration order (a subset of `inputs`). */
  readonly params = new Map<string, Param>();
  private readonly shared = new Map<string, Value>();
  /** Common-subexpression table: the same pure op on the same inputs is built once. */
  private readonly memo = new Map<string, Value[]>();
  private counter = 0;

  /** A fresh value name with a readable prefix. */
  fresh(prefix = 't'): string {
    return `${prefix}_${this.counter++}`;
  }

  /** A graph input (fed at run time). Parameters of a model being trained are inputs. */
  input(name: string, dtype: DType, shape: Shape): Value {
    if (this.inputs.some((v) => v.name === name) || this.initializers.has(name)) {
      throw new Error(`graph: duplicate name ${name}`);
    }
    const v = new Value(this, name, dtype, shape, null);
    this.inputs.push(v);
    return v;
  }

  /**
   * A parameter: fed as an input while training (so one session serves every step),
   * baked in as an initializer on export. Declaring a name again returns the same
   * value (shared weights), provided the shape agrees.
   */
  param(name: string, shape: readonly number[], init: () => Tensor): Value {
    const old = this.params.get(name);
    if (old) {
      if (old.value.shape.join() !== shape.join()) throw new Error(`param ${name}: shape [${shape}] ≠ [${old.value.shape}]`);
      return old.value;
    }
    const t = init();
    const value = this.input(name, t.type as DType, [...t.dims]);
    this.params.set(name, { value, init: t });
    return value;
  }

  /** A constant stored in the model (an ONNX initializer). */
  constant(t: Tensor, name = this.fresh('c')): Value {
    if (this.initializers.has(name)) throw new Error(`graph: duplicate constant ${name}`);
    this.initializers.set(name, t);
    return new Value(this, name, t.type as DType, [...t.dims], null);
  }

  /** A shared scalar constant of the given dtype. */
  scalar(v: number, dtype: DType): Value {
    const key = `${dtype}:${v}`;
    let c = this.shared.get(key);
    if (!c) {
      c = this.constant(scalarTensor(v, dtype), this.fresh('k'));
      this.shared.set(key, c);
    }
    return c;
  }

  /** A shared constant int64 vector (axes, shapes, split sizes). */
  ints(values: readonly number[]): Value {
    const key = `ints:${values.join(',')}`;
    let c = this.shared.get(key);
    if (!c) {
      c = this.constant(int64s(values));
      this.shared.set(key, c);
    }
    return c;
  }

  /** The nodes needed for `outputs`, in graph order, and the values they read. */
  live(outputs: readonly Value[]): { nodes: Node[]; used: Set<Value> } {
    const used = new Set<Value>(outputs);
    const keep = new Set<Node>();
    for (let i = this.nodes.length - 1; i >= 0; i--) {
      const n = this.nodes[i];
      if (!n.outputs.some((o) => used.has(o))) continue;
      keep.add(n);
      for (const v of n.inputs) if (v) used.add(v);
    }
    return { nodes: this.nodes.filter((n) => keep.has(n)), used };
  }

  /** Applies a registered op; returns its outputs, shape-inferred. */
  apply(op: string, inputs: readonly (Value | null)[], attrs: Attrs = {}): Value[] {
    for (const v of inputs) if (v && v.graph !== this) throw new Error(`${op}: value from another graph`);
    const def = getOp(op);
    const key = def.impure ? null : memoKey(op, inputs, attrs);
    const hit = key && this.memo.get(key);
    if (hit) return hit;
    const types = def.infer(inputs, attrs);
    const outs: Value[] = [];
    const node: Node = { op, inputs, outputs: outs, attrs };
    for (const t of types) outs.push(new Value(this, this.fresh(op.toLowerCase()), t.dtype, t.shape, node));
    this.nodes.push(node);
    if (key) this.memo.set(key, outs);
    return outs;
  }
}

function memoKey(op: string, inputs: readonly (Value | null)[], attrs: Attrs): string | null {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(attrs)) {
    if (v instanceof Tensor) return null;
    parts.push(`${k}=${JSON.stringify(v)}`);
  }
  return `${op}(${inputs.map((v) => v?.name ?? '').join(',')})${parts.join(';')}`;
}

export function scalarTensor(v: number, dtype: DType): Tensor {
  switch (dtype) {
    case 'float32':
      return new Tensor('float32', Float32Array.of(v), []);
    case 'float64':
      return new Tensor('float64', Float64Array.of(v), []);
    case 'int64':
      return new Tensor('int64', BigInt64Array.of(BigInt(v)), []);
    case 'bool':
      return new Tensor('bool', Uint8Array.of(v ? 1 : 0), []);
  }
}

export type { DType, FloatDType };

// ---- The op registry: one entry per primitive, holding its shape/dtype rule and its
// vector-Jacobian product (VJP) written in graph ops, JAX style. Op files register their
// entries with `defop` right under the op's user-facing function.

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
