// The host AdamW step in WebAssembly (assembly/adamw.ts, compiled into adamw-kernel-bytes.ts)
// seen from the Trainer: one instance per training state, whose linear memory holds every
// trainable parameter, both AdamW moments and a copy of the gradients. The parameters and
// moments live there for the whole run (the Tensors the Trainer feeds are views on that
// memory), so a step copies in only the gradients the session returned (~4 ms for 5.3M
// floats; a table's gradient comes as rows and is added into zeros, optim/row-gradients.ts)
// and runs the update four lanes at a time: 15 ms a step against 30–58 ms for the
// typed-array loop of adamw.ts (bilstm-ctl on 5k en–de pairs). The loop stays for float64
// states and for states too large for 32-bit WebAssembly memory (MAX_BYTES).
// A state is adopted on each step: a tensor put into it from outside (a checkpoint restored,
// a saved model's parameters to continue from) is copied into the memory and replaced by the
// memory's view. `release` copies everything out again so the memory can be collected while
// the trained parameters live on.
import { cloneTensor, Tensor } from '../tensor.ts';
import { ADAMW_KERNEL_WASM } from './adamw-kernel-bytes.ts';
import { type AdamWConfig, clipScaleOf, hostStepConstants } from './adamw.ts';
import { type Gradient, writeGradient } from './row-gradients.ts';

/** The part of a Trainer's state the kernel keeps (its TrainState). */
export interface OptimizerState {
  params: Map<string, Tensor>;
  m: Map<string, Tensor>;
  v: Map<string, Tensor>;
}

interface KernelExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  sumSquares(g: number, n: number): number;
  update(...args: number[]): void;
}

/** Largest memory (parameters, two moments and the gradients) the kernel is used for. */
export const MAX_BYTES = 2 ** 31;

const PAGE = 65536;
const align16 = (bytes: number) => Math.ceil(bytes / 16) * 16;

let compiled: WebAssembly.Module | null = null;

interface Slot {
  name: string;
  n: number;
  p: Float32Array;
  m: Float32Array;
  v: Float32Array;
  g: Float32Array;
}

export class AdamWKernel {
  private constructor(
    private readonly k: KernelExports,
    private readonly slots: Slot[],
  ) {}

  /** A kernel laid out for the trainable parameters of `state` (float32 only), or null when it does not apply. */
  static create(state: OptimizerState, trainable: readonly string[]): AdamWKernel | null {
    const sizes = trainable.map((n) => state.params.get(n)!);
    if (sizes.some((t) => t.type !== 'float32')) return null;
    compiled ??= new WebAssembly.Module(Buffer.from(ADAMW_KERNEL_WASM, 'base64'));
    const k = new WebAssembly.Instance(compiled, {}).exports as unknown as KernelExports;
    let at = align16(k.heapBase());
    const bytes = at + sizes.reduce((s, t) => s + 4 * align16(4 * t.data.length), 0);
    if (bytes > MAX_BYTES) return null;
    // grow once, before any view exists: growing detaches the views of the old buffer
    try {
      k.memory.grow(Math.max(0, Math.ceil(bytes / PAGE) - k.memory.buffer.byteLength / PAGE));
    } catch {
      return null; // the system refused the memory: the typed-array loop needs none of its own
    }
    const view = (n: number) => {
      const a = new Float32Array(k.memory.buffer, at, n);
      at += align16(4 * n);
      return a;
    };
    const slots = trainable.map((name, i) => {
      const n = sizes[i].data.length;
      return { name, n, p: view(n), m: view(n), v: view(n), g: view(n) };
    });
    return new AdamWKernel(k, slots);
  }

  /** Makes the state's parameters and moments this memory's views (copying in any that are not). */
  adopt(state: OptimizerState): void {
    for (const s of this.slots) {
      for (const [map, into] of [
        [state.params, s.p],
        [state.m, s.m],
        [state.v, s.v],
      ] as const) {
        const t = map.get(s.name)!;
        if (t.data === into) continue;
        into.set(t.data as Float32Array);
        map.set(s.name, new Tensor('float32', into, t.dims));
      }
    }
  }

  /** One AdamW step of the adopted state from these gradients (in the order of `trainable`). */
  step(grads: readonly Gradient[], lr: number, t: number, cfg: AdamWConfig): void {
    this.slots.forEach((s, i) => writeGradient(s.g, grads[i]));
    let scale = 1;
    if (cfg.clipNorm !== undefined) {
      let ss = 0;
      for (const s of this.slots) ss += this.k.sumSquares(s.g.byteOffset, s.n);
      scale = clipScaleOf(ss, cfg.clipNorm);
    }
    const c = hostStepConstants(lr, t, cfg, scale);
    for (const s of this.slots) {
      this.k.update(
        s.p.byteOffset,
        s.g.byteOffset,
        s.m.byteOffset,
        s.v.byteOffset,
        s.n,
        c.beta1,
        c.beta2,
        c.a1,
        c.a2,
        c.keep,
        c.step,
        c.rootC2,
        c.eps,
      );
    }
  }

  /** Replaces the state's views on this memory by copies, so that the memory can be collected. */
  release(state: OptimizerState): void {
    for (const s of this.slots) {
      for (const map of [state.params, state.m, state.v]) {
        const t = map.get(s.name);
        if (t && (t.data as Float32Array).buffer === this.k.memory.buffer) map.set(s.name, cloneTensor(t));
      }
    }
  }
}
