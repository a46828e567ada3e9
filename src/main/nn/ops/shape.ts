// Shape-only ops: Reshape, Transpose, Squeeze, Unsqueeze, Expand, and the non-differentiable
// Shape, Size, ConstantOfShape, EyeLike. VJPs: reshape-likes reshape the cotangent back to
// Shape(x); Transpose applies the inverse permutation; Expand sums over expanded axes.
import type { Dim, Shape, Value } from '../graph.ts';
import { type DType, Tensor } from '../tensor.ts';
import { scalarTensor } from '../graph.ts';
import { unbroadcast } from './grad-helpers.ts';
import { defop, type OutType } from './registry.ts';
import { broadcast, constInts, isStatic, normAxis, req } from './shape-rules.ts';

export const shapeOf = (x: Value): Value => x.graph.apply('Shape', [x])[0];
export const sizeOf = (x: Value): Value => x.graph.apply('Size', [x])[0];

/** Reshape to constant dims (0 copies, −1 infers) or to a run-time shape with its static form. */
export function reshape(x: Value, to: readonly number[] | Value, out?: Shape): Value {
  if (Array.isArray(to)) return x.graph.apply('Reshape', [x, x.graph.ints(to as number[])])[0];
  if (!out) throw new Error('reshape to a run-time shape needs its static form');
  return x.graph.apply('Reshape', [x, to as Value], { _out: { shapes: [out] } })[0];
}

export function transpose(x: Value, perm: readonly number[]): Value {
  return x.graph.apply('Transpose', [x], { perm: [...perm] })[0];
}

/** Swaps the last two axes. */
export function transposeLast(x: Value): Value {
  const perm = Array.from({ length: x.rank }, (_, i) => i);
  [perm[x.rank - 2], perm[x.rank - 1]] = [perm[x.rank - 1], perm[x.rank - 2]];
  return transpose(x, perm);
}

export const squeeze = (x: Value, axes: number[]): Value => x.graph.apply('Squeeze', [x, x.graph.ints(axes)])[0];
export const unsqueeze = (x: Value, axes: number[]): Value => x.graph.apply('Unsqueeze', [x, x.graph.ints(axes)])[0];

export function expand(x: Value, shape: Value, out: Shape): Value {
  return x.graph.apply('Expand', [x, shape], { _out: { shapes: [out] } })[0];
}

export function expandAs(x: Value, like: Value): Value {
  return expand(x, shapeOf(like), broadcast(x.shape, like.shape));
}

export function constantOfShape(shape: Value, out: Shape, value: number, dtype: DType): Value {
  return shape.graph.apply('ConstantOfShape', [shape], { value: oneElement(value, dtype), _out: { shapes: [out] } })[0];
}

function oneElement(v: number, dtype: DType): Tensor {
  const t = scalarTensor(v, dtype);
  return new Tensor(t.type, t.data, [1]);
}

/** An identity matrix shaped like 2-D `x`. */
export const eyeLike = (x: Value): Value => x.graph.apply('EyeLike', [x])[0];

// ---- registry entries ----

function hinted(attrs: Readonly<Record<string, unknown>>, dtype: DType): OutType[] {
  const h = attrs._out as { shapes: Shape[] } | undefined;
  if (!h) throw new Error('missing output shape hint');
  return h.shapes.map((shape) => ({ dtype, shape }));
}

const backToX = ({ inputs: [x], ct }: { inputs: readonly (Value | null)[]; ct: Value }) => [
  reshape(ct, shapeOf(x!), x!.shape),
  null,
];

export function reshapeInfer(x: Value, dims: number[]): Dim[] {
  const out: Dim[] = dims.map((d, i) => (d === 0 ? x.shape[i] : d));
  const hole = out.indexOf(-1);
  if (hole < 0) return out;
  const known = out.filter((_, i) => i !== hole);
  const inShape = x.shape;
  if (isStatic(inShape) && isStatic(known)) {
    out[hole] = product(inShape) / product(known);
  } else {
    out[hole] = symbolFor(x, out, hole);
  }
  return out;
}

function product(ds: readonly number[]): number {
  return ds.reduce((a, b) => a * b, 1);
}

/** −1 over a symbolic shape: keep the symbol if exactly one input symbol is unaccounted for. */
function symbolFor(x: Value, out: Dim[], hole: number): Dim {
  const syms = x.shape.filter((d) => typeof d === 'string' && !out.includes(d));
  const statIn = x.shape.filter((d) => typeof d === 'number').reduce<number>((a, b) => a * (b as number), 1);
  const statOut = out.filter((d, i) => i !== hole && typeof d === 'number').reduce<number>((a, b) => a * (b as number), 1);
  if (syms.length === 1 && statIn === statOut) return syms[0];
  return `${x.name}_d${hole}`;
}

defop('Reshape', {
  infer: ([x, s], attrs) =>
    attrs._out ? hinted(attrs, req(x, 'Reshape').dtype) : [{ dtype: x!.dtype, shape: reshapeInfer(x!, constInts(s, 'Reshape shape')) }],
  vjp: backToX,
});

defop('Transpose', {
  infer: ([x], attrs) => [{ dtype: req(x, 'Transpose').dtype, shape: (attrs.perm as number[]).map((p) => x!.shape[p]) }],
  vjp: ({ ct, attrs }) => {
    const perm = attrs.perm as number[];
    const inv = perm.map((_, i) => perm.indexOf(i));
    return [transpose(ct, inv)];
  },
});

defop('Squeeze', {
  infer: ([x, a]) => {
    const axes = constInts(a, 'Squeeze axes').map((ax) => normAxis(ax, req(x, 'Squeeze').rank));
    return [{ dtype: x!.dtype, shape: x!.shape.filter((_, i) => !axes.includes(i)) }];
  },
  vjp: backToX,
});

defop('Unsqueeze', {
  infer: ([x, a]) => {
    const rank = req(x, 'Unsqueeze').rank + constInts(a, 'Unsqueeze axes').length;
    const axes = constInts(a, 'Unsqueeze axes').map((ax) => normAxis(ax, rank));
    const rest = [...x!.shape];
    return [{ dtype: x!.dtype, shape: Array.from({ length: rank }, (_, i) => (axes.includes(i) ? 1 : rest.shift()!)) }];
  },
  vjp: backToX,
});

defop('Expand', {
  infer: ([x], attrs) => hinted(attrs, req(x, 'Expand').dtype),
  vjp: ({ inputs: [x], ct }) => [unbroadcast(ct, x!), null],
});

defop('Shape', { infer: ([x]) => [{ dtype: 'int64', shape: [req(x, 'Shape').rank] }] });
defop('Size', { infer: () => [{ dtype: 'int64', shape: [] }] });
defop('ConstantOfShape', { infer: (_, attrs) => hinted(attrs, (attrs.value as Tensor).type as DType) });
defop('EyeLike', { infer: ([x]) => [{ dtype: req(x, 'EyeLike').dtype, shape: x!.shape }], vjp: () => [null] });
