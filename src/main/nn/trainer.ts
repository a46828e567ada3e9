// The training step: one ONNX session computes the loss and the gradients of every
// trainable parameter (and, with optimizer 'graph', the AdamW update too); the Trainer
// feeds parameters, optimiser state and a batch, and keeps their values between steps.
// Parameters are graph inputs, so one session serves the whole run. A step may take several
// micro-batches (gradient accumulation): the session runs once per micro-batch, their
// gradients are summed with the caller's weights (a micro-batch's share of the step's
// examples, so that a mean loss over the whole batch has exactly the summed gradient), and
// one clipped AdamW update follows, as one step over all of them would make.
import { grad, gradientRows } from './autodiff.ts';
import type { DeviceName, DeviceSetting } from './devices.ts';
import { matmulFlops } from './flops.ts';
import type { Graph, Value } from './graph.ts';
import {
  ADAMW_DEFAULTS,
  type AdamWConfig,
  adamwUpdate,
  appendAdamW,
  clipScale,
  type Floats,
  nextName,
  stateName,
  zerosLikeTensor,
} from './optim/adamw.ts';
import { AdamWKernel } from './optim/adamw-kernel.ts';
import { denseGradient, type Gradient, type GradientRows } from './optim/row-gradients.ts';
import { makeSchedule, type Schedule, type ScheduleConfig } from './optim/schedule.ts';
import { type Feeds, Program } from './session.ts';
import { cloneTensor, Tensor } from './tensor.ts';

const DEFAULT_OPTIMIZER = 'host';

/** The host optimiser's WebAssembly kernel per parameter map (bucket Trainers share one map). */
const kernels = new WeakMap<Map<string, Tensor>, AdamWKernel | null>();

export interface TrainerOptions extends AdamWConfig {
  schedule: ScheduleConfig | Schedule;
  /**
   * Where AdamW runs: on the host over the returned gradients, in WebAssembly
   * (optim/adamw-kernel.ts; a typed-array loop for float64 or huge states) (default: it
   * measures faster on CPU, since the graph variant must return parameters and both moments
   * every step), or appended to the training graph.
   */
  optimizer?: 'graph' | 'host';
  /** Parameters left unchanged (their values are still fed). */
  frozen?: readonly string[];
  device?: DeviceSetting;
  threads?: number;
  log?: (line: string) => void;
  /** Scalars computed alongside the loss (e.g. each term of a weighted sum), read after each step from `reported`. */
  report?: Readonly<Record<string, Value>>;
}

/** One micro-batch of an accumulated step and its weight in the step's loss. */
export interface WeightedFeeds {
  feeds: Feeds;
  weight: number;
}

/** Everything a checkpoint needs to resume a run exactly. */
export interface TrainState {
  step: number;
  params: Map<string, Tensor>;
  m: Map<string, Tensor>;
  v: Map<string, Tensor>;
}

export class Trainer {
  /** The `report` scalars of the last step. */
  reported: Record<string, number> = {};
  /** Where the last step's time went: the session runs (all micro-batches) and the host optimiser's update, in ms. */
  lastStepMs = { run: 0, update: 0 };

  private constructor(
    private readonly prog: Program,
    private readonly trainable: readonly string[],
    private readonly o: TrainerOptions,
    readonly state: TrainState,
    private readonly graph: Graph,
    private readonly outputs: readonly Value[],
  ) {}

  static async create(graph: Graph, loss: Value, o: TrainerOptions): Promise<Trainer> {
    const params = [...graph.params.values()].filter((p) => !o.frozen?.includes(p.value.name));
    if (!params.length) throw new Error('trainer: no trainable parameters');
    const grads = grad(
      loss,
      params.map((p) => p.value),
    );
    const outputs: Record<string, Value> = { loss };
    for (const [name, v] of Object.entries(o.report ?? {})) outputs[`report.${name}`] = v;
    if ((o.optimizer ?? DEFAULT_OPTIMIZER) === 'graph')
      Object.assign(
        outputs,
        appendAdamW(
          graph,
          params.map((p) => p.value),
          grads,
          o,
        ).outputs,
      );
    else
      params.forEach((p, i) => {
        // a table read only through Gathers: its rows, added into the gradient on the host
        const rows = gradientRows(grads[i]);
        if (!rows) outputs[`grad.${p.value.name}`] = grads[i];
        else
          rows.forEach(([idx, upd], k) => {
            outputs[`grad.${p.value.name}.idx.${k}`] = idx;
            outputs[`grad.${p.value.name}.rows.${k}`] = upd;
          });
      });
    const prog = await Program.compile(graph, outputs, { device: o.device, threads: o.threads, log: o.log });
    const state: TrainState = { step: 0, params: new Map(), m: new Map(), v: new Map() };
    for (const [name, p] of graph.params) state.params.set(name, cloneTensor(p.init));
    for (const p of params) {
      state.m.set(p.value.name, zerosLikeTensor(p.init));
      state.v.set(p.value.name, zerosLikeTensor(p.init));
    }
    return new Trainer(
      prog,
      params.map((p) => p.value.name),
      o,
      state,
      graph,
      Object.values(outputs),
    );
  }

  get device(): DeviceName {
    return this.prog.device;
  }

  private get schedule(): Schedule {
    const s = this.o.schedule;
    return typeof s === 'function' ? s : makeSchedule(s);
  }

  /** MatMul and Gemm FLOPs of one step on `batch` (forward and backward; flops.ts). */
  matmulFlops(batch: Feeds): number {
    return matmulFlops(this.graph, this.outputs, batch);
  }

  /**
   * One optimisation step on a batch, or on micro-batches whose weighted gradients are summed
   * (host optimiser only); returns the loss before the update (the weighted sum over micro-batches).
   */
  async step(batch: Feeds | readonly WeightedFeeds[]): Promise<number> {
    const s = this.state;
    const t = s.step + 1;
    const lr = this.schedule(s.step);
    const graphMode = (this.o.optimizer ?? DEFAULT_OPTIMIZER) === 'graph';
    const parts: readonly WeightedFeeds[] = Array.isArray(batch) ? batch : [{ feeds: batch as Feeds, weight: 1 }];
    if (!parts.length) throw new Error('trainer: a step needs at least one batch');
    if (graphMode && parts.length > 1) throw new Error('trainer: gradient accumulation needs the host optimiser');
    const reportNames = Object.keys(this.o.report ?? {});
    this.reported = Object.fromEntries(reportNames.map((n) => [n, 0]));
    let loss = 0;
    let grads: Gradient[] | null = null;
    const t0 = performance.now();
    for (const { feeds: micro, weight } of parts) {
      const feeds: Record<string, Tensor> = { ...micro, ...Object.fromEntries(s.params) };
      if (graphMode) this.addOptimizerFeeds(feeds, lr, t);
      const out = await this.prog.run(feeds);
      for (const n of reportNames) this.reported[n] += weight * Number(out[`report.${n}`].data[0]);
      loss += weight * Number(out.loss.data[0]);
      if (graphMode) this.takeGraphUpdate(out);
      else grads = addGradients(grads, this.gradients(out), weight);
    }
    const t1 = performance.now();
    if (!graphMode) this.hostUpdate(grads!, lr, t);
    this.lastStepMs = { run: t1 - t0, update: performance.now() - t1 };
    s.step = t;
    return loss;
  }

  private addOptimizerFeeds(feeds: Record<string, Tensor>, lr: number, t: number): void {
    const dtype = this.state.params.get(this.trainable[0])!.type as 'float32' | 'float64';
    const scalar = (x: number) => new Tensor(dtype, dtype === 'float32' ? Float32Array.of(x) : Float64Array.of(x), []);
    feeds['opt.lr'] = scalar(lr);
    feeds['opt.c1'] = scalar(1 / (1 - (this.o.beta1 ?? ADAMW_DEFAULTS.beta1) ** t));
    feeds['opt.c2'] = scalar(1 / (1 - (this.o.beta2 ?? ADAMW_DEFAULTS.beta2) ** t));
    for (const n of this.trainable) {
      feeds[stateName('m', n)] = this.state.m.get(n)!;
      feeds[stateName('v', n)] = this.state.v.get(n)!;
    }
  }

  private takeGraphUpdate(out: Record<string, Tensor>): void {
    for (const n of this.trainable) {
      this.state.params.set(n, out[nextName(n)]);
      this.state.m.set(n, out[nextName(stateName('m', n))]);
      this.state.v.set(n, out[nextName(stateName('v', n))]);
    }
  }

  /** The gradient of every trainable parameter in a session's outputs (dense, or a table's rows). */
  private gradients(out: Record<string, Tensor>): Gradient[] {
    return this.trainable.map((n): Gradient => {
      const dense = out[`grad.${n}`];
      if (dense) return dense.data as Floats;
      const rows: GradientRows[] = [];
      for (let k = 0; out[`grad.${n}.idx.${k}`]; k++)
        rows.push({ idx: out[`grad.${n}.idx.${k}`].data as BigInt64Array, rows: out[`grad.${n}.rows.${k}`].data as Floats });
      return rows;
    });
  }

  private hostUpdate(grads: Gradient[], lr: number, t: number): void {
    const kernel = this.kernel();
    if (kernel) {
      kernel.adopt(this.state);
      kernel.step(grads, lr, t, this.o);
      return;
    }
    const dense = grads.map((g, i) => denseGradient(g, this.state.params.get(this.trainable[i])!.data as Floats));
    const scale = clipScale(dense, this.o.clipNorm);
    this.trainable.forEach((n, i) => {
      const p = this.state.params.get(n)!.data as Floats;
      adamwUpdate(p, dense[i], { m: this.state.m.get(n)!.data as Floats, v: this.state.v.get(n)!.data as Floats }, lr, t, this.o, scale);
    });
  }

  /** The WebAssembly AdamW of this state (shared by the Trainers that share its maps), or null for the typed-array loop. */
  private kernel(): AdamWKernel | null {
    const key = this.state.params;
    if (!kernels.has(key)) kernels.set(key, AdamWKernel.create(this.state, this.trainable));
    return kernels.get(key)!;
  }

  /** Replaces parameters and optimiser state (resume from a checkpoint); copies them. */
  restore(s: TrainState): void {
    for (const [n, t] of s.params) if (this.state.params.has(n)) this.state.params.set(n, cloneTensor(t));
    for (const n of this.trainable) {
      const m = s.m.get(n);
      const v = s.v.get(n);
      if (!m || !v) throw new Error(`restore: no optimiser state for ${n}`);
      this.state.m.set(n, cloneTensor(m));
      this.state.v.set(n, cloneTensor(v));
    }
    this.state.step = s.step;
  }

  async release(): Promise<void> {
    kernels.get(this.state.params)?.release(this.state);
    kernels.delete(this.state.params);
    await this.prog.release();
  }
}

/** `acc` + `weight` · `g` per parameter (`g`'s arrays, fresh from a session run, are scaled in place); `g` scaled when `acc` is null. */
function addGradients(acc: Gradient[] | null, g: Gradient[], weight: number): Gradient[] {
  const scale = (x: Floats) => {
    if (weight !== 1) for (let j = 0; j < x.length; j++) x[j] *= weight;
    return x;
  };
  return g.map((gi, i) => {
    const a = acc?.[i];
    if (Array.isArray(gi)) {
      const rows = gi.map((r) => ({ idx: r.idx, rows: scale(r.rows) }));
      return a ? [...(a as GradientRows[]), ...rows] : rows;
    }
    const dense = scale(gi as Floats);
    if (!a) return dense;
    const sum = a as Floats;
    for (let j = 0; j < sum.length; j++) sum[j] += dense[j];
    return sum;
  });
}
