// Matrix products. Math, for Y = A·B over the last two axes (leading axes broadcast):
//   Ā = Ȳ·Bᵀ,  B̄ = Aᵀ·Ȳ  (each summed over broadcast batch axes).
// When B is broadcast over A's last batch axes (a plain matrix against a batch; the grouped
// LSTM's [G, 1, K, N] weights against [G, B, T, K] inputs), those axes fold into the rows and
// B̄ is one product instead of one per batch row summed after:
//   B̄ = reshape(A, [G…, −1, K])ᵀ · reshape(Ȳ, [G…, −1, N]).
// Gemm: Y = α·op(A)·op(B) + β·C with op = optional transpose;
//   with A' = op(A), B' = op(B): Ā' = α·Ȳ·B'ᵀ, B̄' = α·A'ᵀ·Ȳ, C̄ = β·Ȳ (unbroadcast),
//   and Ā = Ā'ᵀ when transA (likewise B).
import { defop, type Value } from '../graph.ts';
import { mul, reshape, transposeLast, unbroadcast } from './core.ts';
import { attrFloat, attrInt, broadcast, isStatic, req } from './shape-rules.ts';

export const matmul = (a: Value, b: Value): Value => a.graph.apply('MatMul', [a, b])[0];

export interface GemmOptions {
  alpha?: number;
  beta?: number;
  transA?: boolean;
  transB?: boolean;
}

export function gemm(a: Value, b: Value, c: Value | null, o: GemmOptions = {}): Value {
  const attrs = { alpha: { f: o.alpha ?? 1 }, beta: { f: o.beta ?? 1 }, transA: o.transA ? 1 : 0, transB: o.transB ? 1 : 0 };
  return a.graph.apply('Gemm', c ? [a, b, c] : [a, b], attrs)[0];
}

function checkInner(op: string, k1: unknown, k2: unknown): void {
  if (typeof k1 === 'number' && typeof k2 === 'number' && k1 !== k2) throw new Error(`${op}: inner dims ${k1} ≠ ${k2}`);
}

defop('MatMul', {
  infer: ([a, b]) => {
    if (req(a, 'MatMul').rank < 2 || req(b, 'MatMul').rank < 2) throw new Error('MatMul: operands must have rank ≥ 2');
    if (a!.dtype !== b!.dtype) throw new Error(`MatMul: dtype mismatch ${a} vs ${b}`);
    checkInner('MatMul', a!.dim(-1), b!.dim(-2));
    const batch = broadcast(a!.shape.slice(0, -2), b!.shape.slice(0, -2));
    return [{ dtype: a!.dtype, shape: [...batch, a!.dim(-2), b!.dim(-1)] }];
  },
  vjp: ({ inputs: [a, b], ct, needs }) => [
    needs[0] ? unbroadcast(matmul(ct, transposeLast(b!)), a!) : null,
    needs[1] ? matmulGradB(a!, b!, ct) : null,
  ],
});

function matmulGradB(a: Value, b: Value, g: Value): Value {
  const k = a.dim(-1);
  const n = b.dim(-1);
  const batchA = a.shape.slice(0, -2);
  const batchB = [...Array<number>(Math.max(0, batchA.length - (b.rank - 2))).fill(1), ...b.shape.slice(0, -2)];
  let kept = 0;
  while (kept < batchA.length && typeof batchB[kept] === 'number' && batchB[kept] !== 1 && batchB[kept] === batchA[kept]) kept++;
  const folds = batchA.length > kept && batchB.length === batchA.length && batchB.slice(kept).every((d) => d === 1);
  if (folds && typeof k === 'number' && typeof n === 'number' && isStatic(b.shape)) {
    // B is broadcast over A's batch axes from `kept` on: those fold into the rows of one product
    const lead = batchB.slice(0, kept) as number[];
    const product = matmul(transposeLast(reshape(a, [...lead, -1, k])), reshape(g, [...lead, -1, n]));
    return b.rank === product.rank ? product : reshape(product, b.shape);
  }
  return unbroadcast(matmul(transposeLast(a), g), b);
}

defop('Gemm', {
  infer: ([a, b, c], attrs) => {
    if (req(a, 'Gemm').rank !== 2 || req(b, 'Gemm').rank !== 2) throw new Error('Gemm: operands must be matrices');
    const [m, k1] = attrInt(attrs, 'transA', 0) ? [a!.dim(1), a!.dim(0)] : [a!.dim(0), a!.dim(1)];
    const [k2, n] = attrInt(attrs, 'transB', 0) ? [b!.dim(1), b!.dim(0)] : [b!.dim(0), b!.dim(1)];
    checkInner('Gemm', k1, k2);
    if (c) broadcast(c.shape, [m, n]);
    return [{ dtype: a!.dtype, shape: [m, n] }];
  },
  vjp: ({ inputs: [a, b, c], ct, attrs, needs }) => {
    const alpha = attrFloat(attrs, 'alpha', 1);
    const ta = attrInt(attrs, 'transA', 0) === 1;
    const tb = attrInt(attrs, 'transB', 0) === 1;
    const g = alpha === 1 ? ct : mul(ct, alpha);
    // Ā' = Ȳ·B'ᵀ (B'ᵀ = B when transB), then Ā = Ā'ᵀ when transA; likewise B̄.
    const ga = needs[0] ? (ta ? gemm(b!, g, null, { transA: tb, transB: true }) : gemm(g, b!, null, { transB: !tb })) : null;
    const gb = needs[1] ? (tb ? gemm(g, a!, null, { transA: true, transB: ta }) : gemm(a!, g, null, { transA: !ta })) : null;
    const gc = c && needs[2] ? unbroadcast(mul(ct, attrFloat(attrs, 'beta', 1)), c) : null;
    return c ? [ga, gb, gc] : [ga, gb];
  },
});
