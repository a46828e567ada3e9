// A test helper (tests only): the gradient check runs on the CPU provider, whose float64 kernels it needs.
// Numerical gradient check: compares autodiff gradients with central finite differences
// in float64. The function under test is reduced to a scalar with fixed random weights,
// L = Σ w ⊙ f(x), so every output element contributes a distinct cotangent.
//   numeric ∂L/∂xⱼ = (L(x + h·eⱼ) − L(x − h·eⱼ)) / 2h
//   error = max |analytic − numeric| / max(1, max |numeric|)
// Parameters the function declares (Graph.param) are checked too, at their initial values.
// Rows may run in float32 (with a larger h) for ops ORT's CPU provider lacks in float64
// (Erf); everything else is checked in float64.
import { grad } from '../../../src/main/nn/autodiff.ts';
import { Graph, type Shape, type Value } from '../../../src/main/nn/graph.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import { mul, reduceSum } from '../../../src/main/nn/ops/all-ops.ts';
import { Program } from '../../../src/main/nn/session.ts';
import { type FloatDType, Tensor } from '../../../src/main/nn/tensor.ts';

export interface GradcheckOptions {
  /** Static or symbolic shapes for the inputs (default: their concrete shapes). */
  shapes?: Shape[];
  /** Build a new session for every evaluation (ops with per-run state, e.g. dropout). */
  freshSession?: boolean;
  h?: number;
  seed?: number;
}

type Build = (g: Graph, xs: Value[]) => Value;

/** L = Σ w ⊙ f(x) and its gradients; w is fed, shaped like f(x) at run time. */
function buildChecked(build: Build, inputs: readonly Tensor[], o: GradcheckOptions, dtype: FloatDType) {
  const g = new Graph();
  const xs = inputs.map((t, i) => g.input(`x${i}`, dtype, o.shapes?.[i] ?? [...t.dims]));
  const y = build(g, xs);
  const params = [...g.params.values()];
  const wrt = [...xs, ...params.map((p) => p.value)];
  const loss = reduceSum(mul(y, g.input('__w', dtype, y.shape)));
  const outs: Record<string, Value> = { loss };
  grad(loss, wrt).forEach((gx, i) => (outs[`g${i}`] = gx));
  return { g, y, outs, names: wrt.map((v) => v.name), values: [...inputs, ...params.map((p) => p.init)] };
}

function weightsFor(y: Tensor, seed: number): Tensor {
  const rng = new Rng(seed);
  const data = y.type === 'float32' ? new Float32Array(y.data.length) : new Float64Array(y.data.length);
  for (let i = 0; i < data.length; i++) data[i] = rng.normal();
  return new Tensor(y.type as FloatDType, data, y.dims);
}

function feeds(names: readonly string[], values: readonly Tensor[], w?: Tensor): Record<string, Tensor> {
  return { ...(w ? { __w: w } : {}), ...Object.fromEntries(values.map((t, i) => [names[i], t])) };
}

function shifted(inputs: readonly Tensor[], i: number, j: number, d: number): Tensor[] {
  const data = (inputs[i].data as Float32Array | Float64Array).slice();
  data[j] += d;
  return inputs.map((t, k) => (k === i ? new Tensor(t.type as FloatDType, data, t.dims) : t));
}

/** Largest relative error between autodiff and finite-difference gradients. */
export async function gradcheck(build: Build, inputs: readonly Tensor[], o: GradcheckOptions = {}): Promise<number> {
  const h = o.h ?? 1e-6;
  const { g, y, outs, names, values } = buildChecked(build, inputs, o, inputs[0].type as FloatDType);
  const forward = await Program.compile(g, { y }, { device: 'cpu' });
  const w = weightsFor((await forward.run(feeds(names, values))).y, o.seed ?? 7);
  await forward.release();
  let prog = await Program.compile(g, outs, { device: 'cpu' });
  const lossAt = async (xs: Tensor[]): Promise<number> => {
    if (o.freshSession) {
      await prog.release();
      prog = await Program.compile(g, outs, { device: 'cpu' });
    }
    return Number((await prog.run(feeds(names, xs, w))).loss.data[0]);
  };
  const analytic = await prog.run(feeds(names, values, w));
  let worst = 0;
  for (let i = 0; i < values.length; i++) {
    const a = analytic[`g${i}`].data as Float32Array | Float64Array;
    let maxErr = 0;
    let scale = 1;
    for (let j = 0; j < a.length; j++) {
      const numeric = ((await lossAt(shifted(values, i, j, h))) - (await lossAt(shifted(values, i, j, -h)))) / (2 * h);
      maxErr = Math.max(maxErr, Math.abs(a[j] - numeric));
      scale = Math.max(scale, Math.abs(numeric));
    }
    worst = Math.max(worst, maxErr / scale);
  }
  await prog.release();
  return worst;
}
