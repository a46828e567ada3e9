// Ops that pick or assemble parts of tensors, with VJPs:
//   concat: x̄ᵢ = the i-th piece of ȳ along the axis (one Split)
//   split:  x̄ = concat of the ȳᵢ (zeros for pieces nobody used)
//   slice (step 1): x̄ = ȳ zero-padded back to x's extent on the sliced axes
//   gather (axis 0, embeddings): x̄ = zeros(x) scatter-added with ȳ at the indices (ScatterND)
//   gatherElements: x̄ = zeros(x) scatter-added with ȳ at the indices (ScatterElements)
//   largestK: no VJP (used for nearest-neighbour search, not trained through)
import { defop, type Dim, type Shape, type Value } from '../graph.ts';
import { shapeOf, sub, unsqueeze, zerosLike } from './core.ts';
import { attrInt, constInts, normAxis, req } from './shape-rules.ts';

export function concat(xs: readonly Value[], axis: number): Value {
  return xs[0].graph.apply('Concat', xs, { axis })[0];
}

/** Splits along `axis` into pieces of the given static sizes. */
export function split(x: Value, sizes: readonly number[], axis: number): Value[] {
  return x.graph.apply('Split', [x, x.graph.ints(sizes)], { axis });
}

export function slice(x: Value, starts: number[], ends: number[], axes: number[]): Value {
  const g = x.graph;
  return g.apply('Slice', [x, g.ints(starts), g.ints(ends), g.ints(axes)])[0];
}

/** Rows of `table` at `indices` (axis 0): out shape = indices.shape ++ table.shape[1:]. */
export const gather = (table: Value, indices: Value, axis = 0): Value => table.graph.apply('Gather', [table, indices], { axis })[0];

export const gatherElements = (x: Value, indices: Value, axis: number): Value => x.graph.apply('GatherElements', [x, indices], { axis })[0];

/** The k largest entries of x along `axis`, largest first, equal values in index order (ONNX TopK): their values and int64 indices. */
export function largestK(x: Value, k: number, axis: number): { values: Value; indices: Value } {
  const [values, indices] = x.graph.apply('TopK', [x, x.graph.ints([k])], { axis, largest: 1, sorted: 1 });
  return { values, indices };
}

// ---- registry entries ----

function sumDims(ds: Dim[]): Dim {
  return ds.every((d) => typeof d === 'number') ? (ds as number[]).reduce((a, b) => a + b, 0) : ds.join('+');
}

defop('Concat', {
  infer: (xs, attrs) => {
    const x0 = req(xs[0], 'Concat');
    const axis = normAxis(attrInt(attrs, 'axis'), x0.rank);
    const shape = [...x0.shape];
    shape[axis] = sumDims(xs.map((x) => req(x, 'Concat').shape[axis]));
    return [{ dtype: x0.dtype, shape }];
  },
  vjp: ({ inputs, ct, attrs }) => {
    const axis = normAxis(attrInt(attrs, 'axis'), ct.rank);
    const sizes = inputs.map((x) => x!.shape[axis]);
    if (sizes.every((d) => typeof d === 'number')) return split(ct, sizes as number[], axis);
    const pieces = concat(
      inputs.map((x) => sliceDim(shapeOf(x!), axis)),
      0,
    );
    return ct.graph.apply('Split', [ct, pieces], { axis, _out: { shapes: inputs.map((x) => x!.shape) } });
  },
});

function sliceDim(shape: Value, axis: number): Value {
  return slice(shape, [axis], [axis + 1], [0]);
}

defop('Split', {
  infer: ([x, s], attrs) => {
    const v = req(x, 'Split');
    const axis = normAxis(attrInt(attrs, 'axis'), v.rank);
    const hint = attrs._out as { shapes: Shape[] } | undefined;
    if (hint) return hint.shapes.map((shape) => ({ dtype: v.dtype, shape }));
    return constInts(s, 'Split sizes').map((n) => ({ dtype: v.dtype, shape: v.shape.map((d, i) => (i === axis ? n : d)) }));
  },
  vjp: ({ outputs, cts, attrs }) => {
    const parts = cts.map((c, i) => c ?? zerosLike(outputs[i]));
    return [concat(parts, attrInt(attrs, 'axis')), null];
  },
});

defop('Slice', {
  infer: ([x, s, e, a, st]) => {
    const v = req(x, 'Slice');
    if (st) throw new Error('Slice: steps are not supported');
    const [starts, ends] = [constInts(s, 'Slice starts'), constInts(e, 'Slice ends')];
    const axes = constInts(a, 'Slice axes').map((ax) => normAxis(ax, v.rank));
    const shape = [...v.shape];
    axes.forEach((ax, i) => (shape[ax] = sliceLength(v.shape[ax], starts[i], ends[i], `${v.name}_s${ax}`)));
    return [{ dtype: v.dtype, shape }];
  },
  vjp: ({ inputs: [x, s, , a], outputs: [y], ct }) => {
    const axes = constInts(a, 'Slice axes').map((ax) => normAxis(ax, x!.rank));
    const starts = constInts(s, 'Slice starts').map((st, i) => clampIndex(st, x!.shape[axes[i]]));
    const g = ct.graph;
    const inX = gatherDims(shapeOf(x!), axes);
    const inY = gatherDims(shapeOf(y), axes);
    const after = sub(sub(inX, g.ints(starts)), inY);
    const pads = concat([g.ints(starts), after], 0);
    return [g.apply('Pad', [ct, pads, null, g.ints(axes)], { _out: { shapes: [x!.shape] } })[0], null, null, null];
  },
});

function clampIndex(i: number, d: Dim): number {
  if (i >= 0 && (typeof d === 'string' || i <= d)) return i;
  if (typeof d === 'string') throw new Error('Slice gradient: negative start on a symbolic dim');
  return Math.min(Math.max(i < 0 ? i + d : i, 0), d);
}

function sliceLength(d: Dim, start: number, end: number, sym: string): Dim {
  if (typeof d === 'string') return sym;
  const s = clampIndex(start, d);
  const e = Math.min(Math.max(end < 0 ? end + d : end, 0), d);
  return Math.max(e - s, 0);
}

function gatherDims(shape: Value, axes: number[]): Value {
  return gather(shape, shape.graph.ints(axes), 0);
}

defop('Pad', {
  infer: ([x], attrs) => [{ dtype: req(x, 'Pad').dtype, shape: (attrs._out as { shapes: Shape[] }).shapes[0] }],
});

defop('Gather', {
  infer: ([x, idx], attrs) => {
    const v = req(x, 'Gather');
    const axis = normAxis(attrInt(attrs, 'axis', 0), v.rank);
    const shape = [...v.shape.slice(0, axis), ...req(idx, 'Gather').shape, ...v.shape.slice(axis + 1)];
    return [{ dtype: v.dtype, shape }];
  },
  vjp: ({ inputs: [x, idx], ct, attrs }) => {
    if (normAxis(attrInt(attrs, 'axis', 0), x!.rank) !== 0) throw new Error('Gather gradient: axis 0 only');
    const g = ct.graph.apply('ScatterND', [zerosLike(x!), unsqueeze(idx!, [-1]), ct], { reduction: 'add' })[0];
    return [g, null];
  },
});

defop('GatherElements', {
  infer: ([x, idx]) => [{ dtype: req(x, 'GatherElements').dtype, shape: req(idx, 'GatherElements').shape }],
  vjp: ({ inputs: [x, idx], ct, attrs }) => [
    ct.graph.apply('ScatterElements', [zerosLike(x!), idx!, ct], { axis: attrInt(attrs, 'axis'), reduction: 'add' })[0],
    null,
  ],
});

defop('TopK', {
  infer: ([x, k], attrs) => {
    const v = req(x, 'TopK');
    const axis = normAxis(attrInt(attrs, 'axis', -1), v.rank);
    const [n] = constInts(k, 'TopK k');
    const d = v.shape[axis];
    if (typeof d === 'number' && n > d) throw new Error(`TopK: k = ${n} exceeds the axis' ${d} entries`);
    const shape = v.shape.map((s, i) => (i === axis ? n : s));
    return [
      { dtype: v.dtype, shape },
      { dtype: 'int64', shape },
    ];
  },
});

for (const op of ['ScatterND', 'ScatterElements']) {
  defop(op, { infer: ([x]) => [{ dtype: req(x, op).dtype, shape: x!.shape }] });
}
