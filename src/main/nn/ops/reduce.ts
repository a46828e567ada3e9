// Reductions and normalisers over axes, with VJPs. ḡₖ is the output cotangent with the
// reduced axes kept as size 1 (so it broadcasts against x):
//   sum:       x̄ = ḡₖ (broadcast)            mean: x̄ = ḡₖ / N, N = |x| / |y|
//   max:       x̄ = ḡₖ ⊙ m / Σm, m = [x = yₖ]  (ties share the gradient)
//   logsumexp: x̄ = ḡₖ ⊙ exp(x − yₖ)
//   softmax (y over axis):    x̄ = y ⊙ (ḡ − Σ_axis ḡ⊙y)
//   logsoftmax (y over axis): x̄ = ḡ − exp(y) ⊙ Σ_axis ḡ
import type { Value } from '../graph.ts';
import { cast, div, equal, exp, mul, sub } from './elementwise.ts';
import { range } from './grad-helpers.ts';
import { defop, type VjpArgs } from './registry.ts';
import { attrInt, constInts, isStatic, normAxis, req } from './shape-rules.ts';
import { expandAs, sizeOf, unsqueeze } from './shape.ts';

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
  const n = isStatic(x.shape) && isStatic(y.shape)
    ? x.graph.scalar(x.shape.reduce((p, d) => p * d, 1) / y.shape.reduce((p, d) => p * d, 1), x.dtype)
    : div(cast(sizeOf(x), x.dtype), cast(sizeOf(y), x.dtype));
  return expandAs(div(gk, n), x);
});

defReduce('ReduceMax', (a, x, gk) => {
  const m = cast(equal(x, kept(a, a.outputs[0])), x.dtype);
  return mul(m, div(gk, reduceSum(m, reducedAxes(a), true)));
});

defReduce('ReduceLogSumExp', (a, x, gk) => mul(gk, exp(sub(x, kept(a, a.outputs[0])))));

function defNormaliser(op: string, vjp: (y: Value, g: Value, axis: number) => Value): void {
  defop(op, {
    infer: ([x]) => [{ dtype: req(x, op).dtype, shape: x!.shape }],
    vjp: ({ outputs: [y], ct, attrs }) => [vjp(y, ct, normAxis(attrInt(attrs, 'axis', -1), y.rank))],
  });
}

defNormaliser('Softmax', (y, g, axis) => mul(y, sub(g, reduceSum(mul(g, y), [axis], true))));
defNormaliser('LogSoftmax', (y, g, axis) => sub(g, mul(exp(y), reduceSum(g, [axis], true))));
