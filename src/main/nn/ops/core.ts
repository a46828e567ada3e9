// The core primitives: elementwise ops with numpy broadcasting, reductions and normalisers,
// shape ops, and the shape plumbing of VJP rules (unbroadcast, zerosLike). One module
// because their VJPs are written in each other's ops (Add's in ReduceSum via unbroadcast,
// ReduceSum's in Expand, Expand's in ReduceSum): as separate files they imported each
// other in a cycle. The other op families (matmul, select, random, the LSTM) build on it.
import { defop, type Dim, type OutType, scalarTensor, type Shape, type Value, type VjpArgs, type VjpRule } from '../graph.ts';
import { type DType, isFloat, Tensor } from '../tensor.ts';
import { attrInt, broadcast, constInts, isStatic, normAxis, req } from './shape-rules.ts';

// ==== Elementwise ====
// Elementwise ops with numpy broadcasting, each with its VJP beside it.
// Math (y = f(x) or y = f(a, b), ḡ the output cotangent, ⊙ elementwise product):
//   add: ā = ḡ, b̄ = ḡ        sub: ā = ḡ, b̄ = −ḡ        mul: ā = ḡ⊙b, b̄ = ḡ⊙a
//   div: ā = ḡ/b, b̄ = −ḡ⊙y/b  pow: ā = ḡ⊙b⊙a^(b−1), b̄ = ḡ⊙y⊙ln a
//   neg: −ḡ  exp: ḡ⊙y  log: ḡ/x  sqrt: ḡ/(2y)  tanh: ḡ⊙(1−y²)  sigmoid: ḡ⊙y⊙(1−y)
//   relu: ḡ⊙[x>0]  erf: ḡ⊙(2/√π)·exp(−x²)   sum of xᵢ: x̄ᵢ = ḡ
// Every b̄/ā is then summed over the axes broadcasting expanded ("unbroadcast").

type Operand = Value | number;

function lift(a: Operand, b: Operand): [Value, Value] {
  if (typeof a === 'number' && typeof b === 'number') throw new Error('two numbers: nothing to build');
  const va = typeof a === 'number' ? (b as Value).graph.scalar(a, (b as Value).dtype) : a;
  const vb = typeof b === 'number' ? va.graph.scalar(b, va.dtype) : b;
  return [va, vb];
}

const bin = (op: string) => (a: Operand, b: Operand) => {
  const [va, vb] = lift(a, b);
  return va.graph.apply(op, [va, vb])[0];
};
const un = (op: string) => (x: Value) => x.graph.apply(op, [x])[0];

export const add = bin('Add');
export const sub = bin('Sub');
export const mul = bin('Mul');
export const div = bin('Div');
export const pow = bin('Pow');
export const max = bin('Max');
export const equal = bin('Equal');
export const greater = bin('Greater');
export const less = bin('Less');
export const neg = un('Neg');
export const exp = un('Exp');
export const log = un('Log');
export const sqrt = un('Sqrt');
export const tanh = un('Tanh');
export const sigmoid = un('Sigmoid');
export const relu = un('Relu');
export function erf(x: Value): Value {
  if (x.dtype === 'float64') throw new Error('erf: ONNX Runtime has no float64 Erf kernel on CPU; use float32');
  return x.graph.apply('Erf', [x])[0];
}
export const identity = un('Identity');
/** Identity in the forward pass; blocks gradients. */
export const stopGradient = un('StopGradient');

export function cast(x: Value, to: DType): Value {
  return x.graph.apply('Cast', [x], { to: CAST_CODES[to] })[0];
}
const CAST_CODES: Record<DType, number> = { float32: 1, int64: 7, bool: 9, float64: 11 };

/** Sum of any number of tensors (one pass over memory, unlike a chain of adds). */
export function sum(xs: readonly Value[]): Value {
  return xs.length === 1 ? xs[0] : xs[0].graph.apply('Sum', xs)[0];
}

export function where(cond: Value, a: Operand, b: Operand): Value {
  const [va, vb] = lift(a, b);
  return cond.graph.apply('Where', [cond, va, vb])[0];
}

// ---- registry entries ----

function sameDtype(op: string, vs: readonly (Value | null)[]): DType {
  const d = req(vs[0], op).dtype;
  for (const v of vs) if (req(v, op).dtype !== d) throw new Error(`${op}: dtype mismatch ${vs.join(' vs ')}`);
  return d;
}

function defBinary(
  op: string,
  rule: (a: Value, b: Value, y: Value, g: Value, needs: readonly boolean[]) => [Value | null, Value | null],
): void {
  defop(op, {
    infer: ([a, b]) => [{ dtype: sameDtype(op, [a, b]), shape: broadcast(a!.shape, b!.shape) }],
    vjp: ({ inputs: [a, b], outputs: [y], ct, needs }) => {
      const [ga, gb] = rule(a!, b!, y, ct, needs);
      return [ga && unbroadcast(ga, a!), gb && unbroadcast(gb, b!)];
    },
  });
}

function defUnary(op: string, vjp?: (x: Value, y: Value, g: Value) => Value | null, onnx?: string): void {
  const rule: VjpRule | undefined = vjp && (({ inputs: [x], outputs: [y], ct }) => [vjp(x!, y, ct)]);
  defop(op, { onnx, infer: ([x]) => [{ dtype: req(x, op).dtype, shape: x!.shape }], vjp: rule });
}

function defCompare(op: string): void {
  defop(op, { infer: ([a, b]) => [{ dtype: (sameDtype(op, [a, b]), 'bool'), shape: broadcast(a!.shape, b!.shape) }] });
}

defBinary('Add', (_a, _b, _y, g) => [g, g]);
defBinary('Sub', (_a, _b, _y, g) => [g, neg(g)]);
defBinary('Mul', (a, b, _y, g, n) => [n[0] ? mul(g, b) : null, n[1] ? mul(g, a) : null]);
defBinary('Div', (_a, b, y, g, n) => [n[0] ? div(g, b) : null, n[1] ? neg(div(mul(g, y), b)) : null]);
defBinary('Pow', (a, b, y, g, n) => [n[0] ? mul(g, mul(b, pow(a, sub(b, 1)))) : null, n[1] ? mul(g, mul(y, log(a))) : null]);
defBinary('Max', (a, b, y, g) => {
  const fromA = cast(equal(a, y), g.dtype);
  return [mul(g, fromA), mul(g, sub(1, fromA))];
});
for (const op of ['Equal', 'Greater', 'Less']) defCompare(op);

defUnary('Neg', (_x, _y, g) => neg(g));
// g is often a reduction's cotangent expanded to y's shape (logsumexp built of Exp and
// ReduceSum): Mul broadcasts the unexpanded value to the same product without writing the copy.
defUnary('Exp', (_x, y, g) => mul(g.producer?.op === 'Expand' ? g.producer.inputs[0]! : g, y));
defUnary('Log', (x, _y, g) => div(g, x));
defUnary('Sqrt', (_x, y, g) => div(mul(g, 0.5), y));
defUnary('Tanh', (_x, y, g) => mul(g, sub(1, mul(y, y))));
defUnary('Sigmoid', (_x, y, g) => mul(g, mul(y, sub(1, y))));
defUnary('Relu', (x, _y, g) => where(greater(x, 0), g, 0));
defUnary('Erf', (x, _y, g) => mul(g, mul(exp(neg(mul(x, x))), 2 / Math.sqrt(Math.PI))));
defUnary('Identity', (_x, _y, g) => g);
defUnary('StopGradient', () => null, 'Identity');

defop('Sum', {
  infer: (xs) => [{ dtype: sameDtype('Sum', xs), shape: broadcast(...xs.map((x) => x!.shape)) }],
  vjp: ({ inputs, ct }) => inputs.map((x) => unbroadcast(ct, x!)),
});

defop('Cast', {
  infer: ([x], attrs) => [{ dtype: dtypeOfCode(attrs.to as number), shape: req(x, 'Cast').shape }],
  vjp: ({ inputs: [x], ct }) => [isFloat(x!.dtype) && isFloat(ct.dtype) ? cast(ct, x!.dtype) : null],
});

function dtypeOfCode(code: number): DType {
  const d = (Object.keys(CAST_CODES) as DType[]).find((k) => CAST_CODES[k] === code);
  if (!d) throw new Error(`Cast: unsupported target ${code}`);
  return d;
}

defop('Where', {
  infer: ([c, a, b]) => {
    if (req(c, 'Where').dtype !== 'bool') throw new Error('Where: condition must be bool');
    return [{ dtype: sameDtype('Where', [a, b]), shape: broadcast(c!.shape, a!.shape, b!.shape) }];
  },
  vjp: ({ inputs: [c, a, b], ct, needs }) => [
    null,
    needs[1] ? unbroadcast(where(c!, ct, 0), a!) : null,
    needs[2] ? unbroadcast(where(c!, 0, ct), b!) : null,
  ],
});

// ==== Reductions ====
// Reductions and normalisers over axes, with VJPs. ḡₖ is the output cotangent with the
// reduced axes kept as size 1 (so it broadcasts against x):
//   sum:       x̄ = ḡₖ (broadcast)            mean: x̄ = ḡₖ / N, N = |x| / |y|
//   max:       x̄ = ḡₖ ⊙ m / Σm, m = [x = yₖ]  (ties share the gradient)
//   logsumexp: x̄ = ḡₖ ⊙ exp(x − yₖ), over one axis ḡₖ ⊙ softmax(x): one kernel and one
//              tensor of x's size where Sub and Exp take two
//   softmax (y over axis):    x̄ = y ⊙ (ḡ − Σ_axis ḡ⊙y)
//   logsoftmax (y over axis): x̄ = ḡ − exp(y) ⊙ Σ_axis ḡ

function reducer(op: string) {
  return (x: Value, axes?: readonly number[], keepdims = false): Value => {
    const ax = axes ?? range(x.rank);
    return x.graph.apply(op, [x, x.graph.ints(ax.map((a) => normAxis(a, x.rank)))], { keepdims: keepdims ? 1 : 0 })[0];
  };
}

export const reduceSum = reducer('ReduceSum');
export const reduceMean = reducer('ReduceMean');
export const reduceMax = reducer('ReduceMax');
export const logSumExp = reducer('ReduceLogSumExp');

export const softmax = (x: Value, axis = -1): Value => x.graph.apply('Softmax', [x], { axis })[0];
export const logSoftmax = (x: Value, axis = -1): Value => x.graph.apply('LogSoftmax', [x], { axis })[0];

// ---- registry entries ----

function reducedAxes(a: VjpArgs | { inputs: readonly (Value | null)[] }): number[] {
  const x = req(a.inputs[0], 'reduce');
  return constInts(a.inputs[1], 'reduce axes').map((ax) => normAxis(ax, x.rank));
}

/** The value `v` (shaped like the reduction's output) with reduced axes kept as 1. */
function kept(a: VjpArgs, v: Value): Value {
  return attrInt(a.attrs, 'keepdims', 1) ? v : unsqueeze(v, reducedAxes(a));
}

function defReduce(op: string, vjp: (a: VjpArgs, x: Value, gk: Value) => Value): void {
  defop(op, {
    infer: (inputs, attrs) => {
      const x = req(inputs[0], op);
      const axes = reducedAxes({ inputs });
      const keep = attrInt(attrs, 'keepdims', 1);
      const shape = keep ? x.shape.map((d, i) => (axes.includes(i) ? 1 : d)) : x.shape.filter((_, i) => !axes.includes(i));
      return [{ dtype: x.dtype, shape }];
    },
    vjp: (a) => [vjp(a, a.inputs[0]!, kept(a, a.ct)), null],
  });
}

defReduce('ReduceSum', (_a, x, gk) => expandAs(gk, x));

defReduce('ReduceMean', (a, x, gk) => {
  const y = a.outputs[0];
  const n =
    isStatic(x.shape) && isStatic(y.shape)
      ? x.graph.scalar(x.shape.reduce((p, d) => p * d, 1) / y.shape.reduce((p, d) => p * d, 1), x.dtype)
      : div(cast(sizeOf(x), x.dtype), cast(sizeOf(y), x.dtype));
  return expandAs(div(gk, n), x);
});

defReduce('ReduceMax', (a, x, gk) => {
  const m = cast(equal(x, kept(a, a.outputs[0])), x.dtype);
  return mul(m, div(gk, reduceSum(m, reducedAxes(a), true)));
});

defReduce('ReduceLogSumExp', (a, x, gk) => {
  const axes = reducedAxes(a);
  return mul(gk, axes.length === 1 ? softmax(x, axes[0]) : exp(sub(x, kept(a, a.outputs[0]))));
});

function defNormaliser(op: string, vjp: (y: Value, g: Value, axis: number) => Value): void {
  defop(op, {
    infer: ([x]) => [{ dtype: req(x, op).dtype, shape: x!.shape }],
    vjp: ({ outputs: [y], ct, attrs }) => [vjp(y, ct, normAxis(attrInt(attrs, 'axis', -1), y.rank))],
  });
}

defNormaliser('Softmax', (y, g, axis) => mul(y, sub(g, reduceSum(mul(g, y), [axis], true))));
defNormaliser('LogSoftmax', (y, g, axis) => sub(g, mul(exp(y), reduceSum(g, [axis], true))));

// ==== Shape ops ====
// Shape-only ops: Reshape, Transpose, Squeeze, Unsqueeze, Expand, and the non-differentiable
// Shape, Size, ConstantOfShape, EyeLike. VJPs: reshape-likes reshape the cotangent back to
// Shape(x); Transpose applies the inverse permutation; Expand sums over expanded axes.

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

const backToX = ({ inputs: [x], ct }: { inputs: readonly (Value | null)[]; ct: Value }) => [reshape(ct, shapeOf(x!), x!.shape), null];

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

/**
 * −1 over a symbolic shape: the input's unaccounted-for symbols times the static ratio,
 * named canonically (`B*33`) so that two values flattened the same way ([B, 33, D] → [−1, D]
 * and [B, 33] → [−1]) get the same symbol and broadcast. A product symbol's own factors
 * count, so unflattening gives the symbol back ([B*33, D] → [−1, 33, D] is [B, 33, D]). A
 * sum symbol (`a+b`, Concat) or a ratio that is not whole falls back to a name of its own.
 */
function symbolFor(x: Value, out: Dim[], hole: number): Dim {
  const syms = x.shape.filter((d): d is string => typeof d === 'string' && !out.includes(d));
  const factors = syms.flatMap((d) => d.split('*'));
  const names = factors.filter((f) => !/^\d+$/.test(f));
  const statIn = [...x.shape, ...factors]
    .filter((d) => typeof d === 'number' || /^\d+$/.test(d))
    .reduce<number>((a, b) => a * Number(b), 1);
  const statOut = out.filter((d, i) => i !== hole && typeof d === 'number').reduce<number>((a, b) => a * (b as number), 1);
  const ratio = statIn / statOut;
  if (names.length && Number.isInteger(ratio) && !syms.some((d) => d.includes('+')))
    return names
      .sort()
      .concat(ratio === 1 ? [] : [String(ratio)])
      .join('*');
  return `${x.name}_d${hole}`;
}

defop('Reshape', {
  infer: ([x, s], attrs) =>
    attrs._out ? hinted(attrs, req(x, 'Reshape').dtype) : [{ dtype: x!.dtype, shape: reshapeInfer(x!, constInts(s, 'Reshape shape')) }],
  vjp: backToX,
});

/** A matrix's transpose, or the matrix a 2-D Transpose was taken of. */
const transposed = (v: Value): Value =>
  v.producer?.op === 'Transpose' && v.rank === 2 && (v.producer.attrs.perm as number[])[0] === 1
    ? v.producer.inputs[0]!
    : transpose(v, [1, 0]);

defop('Transpose', {
  infer: ([x], attrs) => [{ dtype: req(x, 'Transpose').dtype, shape: (attrs.perm as number[]).map((p) => x!.shape[p]) }],
  vjp: ({ ct, attrs }) => {
    const perm = attrs.perm as number[];
    // A matrix's cotangent made by one product (a weight used as Wᵀ, as Hugging Face's Linear
    // stores it: MatMul's gradient Xᵀ·G): (Xᵀ·G)ᵀ = Gᵀ·X, one product whose operands' transposes
    // onnxruntime folds into it, instead of a product and a copy of its result.
    const made = ct.producer;
    if (ct.rank === 2 && made?.op === 'MatMul' && made.inputs.every((v) => v!.rank === 2))
      return [ct.graph.apply('MatMul', [transposed(made.inputs[1]!), transposed(made.inputs[0]!)])[0]];
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

// ==== VJP plumbing ====
// Shape plumbing used by VJP rules: summing a cotangent back over broadcast axes,
// expanding a reduced cotangent, zeros shaped like a value.

/** Sums `g` (shaped like a broadcast result) down to the shape of `target`. */
export function unbroadcast(g: Value, target: Value): Value {
  const lead = g.rank - target.rank;
  let r = g;
  if (lead > 0) r = reduceSum(r, range(lead), false);
  const axes: number[] = [];
  target.shape.forEach((d, i) => {
    const gd = r.shape[i];
    if (d === gd) return;
    if (d === 1) axes.push(i);
    else if (gd !== 1) throw new Error(`unbroadcast: ambiguous dims ${gd} → ${d} (give static shapes)`);
  });
  if (axes.length) r = reduceSum(r, axes, true);
  return r.shape.every((d, i) => d === target.shape[i]) ? r : reshape(r, shapeOf(target), target.shape);
}

export function zerosLike(x: Value): Value {
  return constantOfShape(shapeOf(x), x.shape, 0, x.dtype);
}

export function range(n: number, from = 0): number[] {
  return Array.from({ length: n - from }, (_, i) => i + from);
}
