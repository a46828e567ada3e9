// MatMul and Gemm FLOPs of one run of a graph: the forward products and, once autodiff has
// added them, the backward ones, over the nodes the outputs need. A product of [m×k]·[k×n]
// counts 2mkn (as tests/bench/nn.bench.ts counts its MatMul peak); elementwise work is not counted, so
// FLOPs over a step's time, divided by the MatMul peak, is the share of the machine's best
// case a training step reaches. Symbolic dims (the batch 'B', a batch's output vocabulary
// 'Vs') take their sizes from the feeds; the symbols Reshape derives from them
// (a product `B*33`, else `<input>_d<k>`, ops/core.ts) are multiplied out or worked out from
// the reshape that made them, and a Concat's sum of sizes (`a+b`, ops/select.ts) added up.
import type { Dim, Graph, Value } from './graph.ts';
import type { Tensor } from './tensor.ts';

const DERIVED = /^(.*)_d(\d+)$/;

export function matmulFlops(graph: Graph, outputs: readonly Value[], feeds: Readonly<Record<string, Tensor>>): number {
  const { nodes, used } = graph.live(outputs);
  const sizes = new Map<string, number>();
  const byName = new Map<string, Value>();
  const carrier = new Map<string, { value: Value; axis: number }>();
  for (const v of used) {
    byName.set(v.name, v);
    v.shape.forEach((d, axis) => {
      if (typeof d === 'string' && !carrier.has(d)) carrier.set(d, { value: v, axis });
    });
  }
  for (const v of graph.inputs) {
    const t = feeds[v.name];
    if (t) v.shape.forEach((d, axis) => typeof d === 'string' && sizes.set(d, t.dims[axis]));
  }
  const size = (d: Dim): number => {
    if (typeof d === 'number') return d;
    const known = sizes.get(d);
    if (known !== undefined) return known;
    if (d.includes('+')) return d.split('+').reduce((p, x) => p + size(/^\d+$/.test(x) ? Number(x) : x), 0);
    if (d.includes('*')) return d.split('*').reduce((p, x) => p * size(/^\d+$/.test(x) ? Number(x) : x), 1);
    const m = DERIVED.exec(d);
    const from = m && byName.get(m[1]);
    const at = carrier.get(d);
    if (!from || !at) throw new Error(`matmulFlops: no size for dimension '${d}'`);
    const whole = from.shape.reduce<number>((p, x) => p * size(x), 1);
    const rest = at.value.shape.reduce<number>((p, x, i) => (i === at.axis ? p : p * size(x)), 1);
    sizes.set(d, whole / rest);
    return whole / rest;
  };
  let flops = 0;
  for (const n of nodes) {
    if (n.op !== 'MatMul' && n.op !== 'Gemm') continue;
    const a = n.inputs[0]!;
    const k = n.op === 'Gemm' && n.attrs.transA ? a.shape[0] : a.shape[a.shape.length - 1];
    flops += 2 * size(k) * n.outputs[0].shape.reduce<number>((p, d) => p * size(d), 1);
  }
  return flops;
}
