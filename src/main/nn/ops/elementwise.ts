// Elementwise ops with numpy broadcasting, each with its VJP beside it.
// Math (y = f(x) or y = f(a, b), ḡ the output cotangent, ⊙ elementwise product):
//   add: ā = ḡ, b̄ = ḡ        sub: ā = ḡ, b̄ = −ḡ        mul: ā = ḡ⊙b, b̄ = ḡ⊙a
//   div: ā = ḡ/b, b̄ = −ḡ⊙y/b  pow: ā = ḡ⊙b⊙a^(b−1), b̄ = ḡ⊙y⊙ln a
//   neg: −ḡ  exp: ḡ⊙y  log: ḡ/x  sqrt: ḡ/(2y)  tanh: ḡ⊙(1−y²)  sigmoid: ḡ⊙y⊙(1−y)
//   relu: ḡ⊙[x>0]  erf: ḡ⊙(2/√π)·exp(−x²)   sum of xᵢ: x̄ᵢ = ḡ
// Every b̄/ā is then summed over the axes broadcasting expanded ("unbroadcast").
import type { Value } from '../graph.ts';
import { type DType, isFloat } from '../tensor.ts';
import { unbroadcast } from './grad-helpers.ts';
import { defop, type VjpRule } from './registry.ts';
import { broadcast, req } from './shape-rules.ts';

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

function defBinary(op: string, rule: (a: Value, b: Value, y: Value, g: Value, needs: readonly boolean[]) => [Value | null, Value | null]): void {
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
defBinary('Pow', (a, b, y, g, n) => [
  n[0] ? mul(g, mul(b, pow(a, sub(b, 1)))) : null,
  n[1] ? mul(g, mul(y, log(a))) : null,
]);
defBinary('Max', (a, b, y, g) => {
  const fromA = cast(equal(a, y), g.dtype);
  return [mul(g, fromA), mul(g, sub(1, fromA))];
});
for (const op of ['Equal', 'Greater', 'Less']) defCompare(op);

defUnary('Neg', (_x, _y, g) => neg(g));
defUnary('Exp', (_x, y, g) => mul(g, y));
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
