// The training step: one ONNX session computes the loss and the gradients of every
// trainable parameter (and, with optimizer 'graph', the AdamW update too); the Trainer
// feeds parameters, optimiser state and a batch, and keeps their values between steps.
// Parameters are graph inputs, so one session serves the whole run.
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

  /** One optimisation step on a batch; returns the loss before the update. */
  async step(batch: Feeds): Promise<number> {
    const s = this.state;
    const t = s.step + 1;
    const lr = this.schedule(s.step);
    const feeds: Record<string, Tensor> = { ...batch, ...Object.fromEntries(s.params) };
    const graphMode = (this.o.optimizer ?? DEFAULT_OPTIMIZER) === 'graph';
    if (graphMode) this.addOptimizerFeeds(feeds, lr, t);
    const out = await this.prog.run(feeds);
    this.reported = Object.fromEntries(Object.keys(this.o.report ?? {}).map((n) => [n, Number(out[`report.${n}`].data[0])]));
    if (graphMode) this.takeGraphUpdate(out);
    else this.hostUpdate(out, lr, t);
    s.step = t;
    return Number(out.loss.data[0]);
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

  private hostUpdate(out: Record<string, Tensor>, lr: number, t: number): void {
    const grads = this.trainable.map((n): Gradient => {
      const dense = out[`grad.${n}`];
      if (dense) return dense.data as Floats;
      const rows: GradientRows[] = [];
      for (let k = 0; out[`grad.${n}.idx.${k}`]; k++)
        rows.push({ idx: out[`grad.${n}.idx.${k}`].data as BigInt64Array, rows: out[`grad.${n}.rows.${k}`].data as Floats });
      return rows;
    });
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
