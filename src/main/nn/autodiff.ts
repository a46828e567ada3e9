// Reverse-mode autodiff over a Graph: walks the nodes backwards from a scalar loss, asks
// each op's registered VJP rule for its inputs' cotangents, and sums cotangents reaching
// a value along several paths (one Sum node once all have arrived; the rows of a Gather's
// cotangent scatter-added into the others' sum, not scattered into zeros first). When every
// contribution is a product Aᵢᵀ·Gᵢ of matrices, or of stacks of matrices with the same
// leading axes (a weight used at each step of an unrolled recurrence; the grouped LSTM's
// [4, H, 4H] weights), the sum becomes one product of operands stacked along their rows:
//   Σᵢ Aᵢᵀ·Gᵢ = [A₁; A₂; …]ᵀ · [G₁; G₂; …]
// The gradient nodes are appended to the same graph, so one ONNX session computes the loss
// and its gradients (and, if asked, the optimiser update).
import type { Node, Value } from './graph.ts';
import { concat, matmul, reshape, sum, transposeLast, zerosLike } from './ops/all-ops.ts';
import { isStatic } from './ops/shape-rules.ts';
import { getOp } from './graph.ts';
import { isFloat, type Tensor } from './tensor.ts';

/** Values that depend (differentiably) on any of `wrt`. */
function dependents(nodes: readonly Node[], wrt: readonly Value[]): Set<Value> {
  const dep = new Set<Value>(wrt);
  for (const n of nodes) {
    if (!n.inputs.some((v) => v && dep.has(v))) continue;
    for (const o of n.outputs) if (isFloat(o.dtype)) dep.add(o);
  }
  return dep;
}

/** The untransposed A and G of a contribution computed as MatMul(Transpose(A), G), the transpose swapping the last two axes of A and G of one rank. */
function transposedProduct(v: Value): [Value, Value] | null {
  const n = v.producer;
  const t = n?.op === 'MatMul' ? n.inputs[0]?.producer : undefined;
  if (!n || !t || t.op !== 'Transpose') return null;
  const [a, g] = [t.inputs[0]!, n.inputs[1]!];
  const r = v.rank;
  const perm = t.attrs.perm as number[];
  const swapsLast = perm.every((p, i) => p === (i === r - 2 ? r - 1 : i === r - 1 ? r - 2 : i));
  return a.rank === r && g.rank === r && swapsLast ? [a, g] : null;
}

/** The indices and updates of a contribution computed as a scatter-add into zeros (a Gather's VJP). */
function scatteredIntoZeros(v: Value): [Value, Value] | null {
  const n = v.producer;
  const base = n?.inputs[0]?.producer;
  if (n?.op !== 'ScatterND' || n.attrs.reduction !== 'add' || base?.op !== 'ConstantOfShape') return null;
  const fill = base.attrs.value as Tensor;
  if (Array.from(fill.data as ArrayLike<number>).some((x) => Number(x) !== 0)) return null;
  return [n.inputs[1]!, n.inputs[2]!];
}

/** The scatter-adds scatterTogether joined, by the value it returned: their indices and rows before the Concats. */
const joinedScatters = new WeakMap<Value, [Value, Value][]>();

/**
 * The (indices, rows) pairs of a gradient computed as scatter-adds into zeros (a table read
 * only through Gathers), or null: a host optimiser can add the rows itself rather than
 * receive the whole zero-filled table (optim/row-gradients.ts). Indices are [..., 1].
 */
export function gradientRows(v: Value): [Value, Value][] | null {
  const joined = joinedScatters.get(v);
  if (joined) return joined;
  const one = scatteredIntoZeros(v);
  return one && one[0].dim(-1) === 1 ? [one] : null;
}

/**
 * One scatter-add of every scatter contribution's rows into `base`: the zeros of the first
 * when all contributions are scatters (a table gathered twice, a sentence's words and the
 * output vocabulary, zero-fills and adds [V, D] once, not twice), else the sum of the other
 * contributions (a tied table: the MLM head's dense product takes the embedding rows, so no
 * zero-filled [30522, 768] table is made and summed each step — ScatterND 13% and Sum 7.5% of
 * a BERT-base fine-tuning step's kernel time on 2026-11-28).
 */
function scatterInto(base: Value, parts: [Value, Value][]): Value {
  const width = base.shape.slice(1);
  const idx = concat(
    parts.map(([i]) => reshape(i, [-1, 1])),
    0,
  );
  const upd = concat(
    parts.map(([, u]) => reshape(u, [-1, ...(width as number[])])),
    0,
  );
  return base.graph.apply('ScatterND', [base, idx, upd], { reduction: 'add' })[0];
}

/**
 * The sum of a value's cotangents: scatter contributions (Gathers' VJPs) added as one
 * scatter-add (scatterInto); one stacked GEMM for three or more Aᵢᵀ·Gᵢ of a static
 * shape (a weight's per-step gradients: thin operands, many of them); else a Sum. A product
 * of symbolic width — an output table's gradient over a batch's vocabulary, [B·T, V] operands,
 * four of them — costs more to concatenate than to add: 55 of a bilstm-ctl step's 580 ms at
 * T = 32 on 5k en-de pairs went to those Concats.
 */
function total(list: readonly Value[]): Value {
  const scattered = list.map((v) => {
    const p = scatteredIntoZeros(v);
    return p && p[0].dim(-1) === 1 ? p : null;
  });
  const parts = scattered.filter((p): p is [Value, Value] => p !== null);
  if (list.length > 1 && parts.length > 0 && isStatic(list[0].shape.slice(1))) {
    if (parts.length === list.length) {
      const joined = scatterInto(list[0].producer!.inputs[0]!, parts);
      joinedScatters.set(joined, parts);
      return joined;
    }
    // Only a table of static rows (a pretrained encoder's vocabulary): bilstm-ctl's tables
    // of symbolic rows [Vs, 64] keep the Sum, whose rounding its trained parameters (and so
    // its AER and P@1) were measured with; scatter-adding there changes their bits.
    const full = list[scattered.indexOf(parts[0])].shape;
    if (isStatic(full)) {
      const rest = total(list.filter((_, i) => !scattered[i]));
      if (rest.shape.length === full.length && rest.shape.every((d, i) => d === full[i])) return scatterInto(rest, parts);
    }
  }
  const pairs = list.map(transposedProduct);
  if (list.length < 3 || pairs.some((p) => !p) || !isStatic(list[0].shape)) return sum(list);
  const ps = pairs as [Value, Value][];
  const rows = list[0].rank - 2;
  return matmul(
    transposeLast(
      concat(
        ps.map((p) => p[0]),
        rows,
      ),
    ),
    concat(
      ps.map((p) => p[1]),
      rows,
    ),
  );
}

/** Cotangent contributions per value, summed when first read (all have arrived by then). */
class Cotangents {
  private readonly parts = new Map<Value, Value[]>();
  add(v: Value, g: Value): void {
    const list = this.parts.get(v);
    if (list) list.push(g);
    else this.parts.set(v, [g]);
  }
  get(v: Value): Value | null {
    const list = this.parts.get(v);
    if (!list) return null;
    const t = total(list);
    this.parts.set(v, [t]);
    return t;
  }
}

function backprop(node: Node, cts: Cotangents, dep: Set<Value>): void {
  const outCts = node.outputs.map((o) => cts.get(o));
  if (outCts.every((c) => c === null)) return;
  const needs = node.inputs.map((v) => v !== null && dep.has(v));
  if (!needs.some(Boolean)) return;
  const rule = getOp(node.op).vjp;
  if (!rule) throw new Error(`autodiff: op ${node.op} has no VJP`);
  const first = outCts[0];
  const grads = rule({
    inputs: node.inputs,
    outputs: node.outputs,
    cts: outCts,
    get ct(): Value {
      if (!first) throw new Error(`${node.op}: output 0 has no cotangent`);
      return first;
    },
    needs,
    attrs: node.attrs,
  });
  if (grads.length !== node.inputs.length) {
    throw new Error(`autodiff: ${node.op} VJP returned ${grads.length} gradients for ${node.inputs.length} inputs`);
  }
  grads.forEach((g, i) => {
    const x = node.inputs[i];
    if (!g || !x || !needs[i]) return;
    if (g.dtype !== x.dtype) throw new Error(`autodiff: ${node.op} gradient ${g} for input ${x}`);
    cts.add(x, g);
  });
}

/** d loss / d v for each v in `wrt` (zeros where the loss does not depend on v). */
export function grad(loss: Value, wrt: readonly Value[]): Value[] {
  if (loss.rank !== 0 || !isFloat(loss.dtype)) throw new Error(`grad: loss must be a float scalar, got ${loss}`);
  const g = loss.graph;
  const nodes = [...g.nodes];
  const dep = dependents(nodes, wrt);
  const cts = new Cotangents();
  cts.add(loss, g.scalar(1, loss.dtype));
  for (let i = nodes.length - 1; i >= 0; i--) backprop(nodes[i], cts, dep);
  return wrt.map((v) => cts.get(v) ?? zerosLike(v));
}
