// The host AdamW step in WebAssembly (assembly/adamw.ts, compiled into adamw-kernel-bytes.ts)
// seen from the Trainer: one instance per training state, whose linear memory holds every
// trainable parameter, both AdamW moments and a copy of the gradients. The parameters and
// moments live there for the whole run (the Tensors the Trainer feeds are views on that
// memory), so a step copies in only the gradients the session returned and runs the update
// four lanes at a time. A table's gradient comes as rows (optim/row-gradients.ts): they pass
// through a scratch region of this memory, a chunk at a time, and the kernel adds them into
// the gradient, marking the rows it wrote in a byte per table row; the norm and the update
// read only those rows' gradient (assembly/adamw.ts). bilstm-ctl on 5k en–de pairs (5.35M
// parameters, ~15k table rows a step): 17–18 ms a step, against 36–46 ms when JavaScript
// added the rows into a zeroed dense gradient; the typed-array loop of adamw.ts took 30–58 ms
// for the update alone. That loop stays for float64 states and for states too large for
// 32-bit WebAssembly memory (MAX_BYTES).
// A state is adopted on each step: a tensor put into it from outside (a checkpoint restored,
// a saved model's parameters to continue from) is copied into the memory and replaced by the
// memory's view. `release` copies everything out again so the memory can be collected while
// the trained parameters live on.
import { cloneTensor, Tensor } from '../tensor.ts';
import { ADAMW_KERNEL_WASM } from './adamw-kernel-bytes.ts';
import { type AdamWConfig, clipScaleOf, hostStepConstants } from './adamw.ts';
import { type Gradient, type GradientRows, outsideTable } from './row-gradients.ts';

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
  sumSquaresRows(g: number, touched: number, tableRows: number, w: number): number;
  setStep(beta1: number, beta2: number, a1: number, a2: number, keep: number, step: number, rootC2: number, eps: number): void;
  update(p: number, g: number, m: number, v: number, n: number): void;
  updateRows(p: number, g: number, m: number, v: number, touched: number, tableRows: number, w: number): void;
  addRows(g: number, touched: number, idx: number, rows: number, n: number, w: number, tableRows: number): number;
}

/** Largest memory (parameters, two moments and the gradients) the kernel is used for. */
export const MAX_BYTES = 2 ** 31;

/** Bytes of the scratch region that a table's gradient rows and their indices pass through. */
const SCRATCH_BYTES = 2 ** 20;

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
  /** rows of the parameter as a table (its first dimension), and where their marks start */
  rows: number;
  touched: number;
}

export class AdamWKernel {
  /** views of the whole memory, which never grows after create */
  private readonly bytes: Uint8Array;
  private readonly floats: Float32Array;

  private constructor(
    private readonly k: KernelExports,
    private readonly slots: Slot[],
    /** where the scratch region starts, and its size */
    private readonly scratch: number,
    private readonly scratchBytes: number,
  ) {
    this.bytes = new Uint8Array(k.memory.buffer);
    this.floats = new Float32Array(k.memory.buffer);
  }

  /** A kernel laid out for the trainable parameters of `state` (float32 only), or null when it does not apply. */
  static create(state: OptimizerState, trainable: readonly string[]): AdamWKernel | null {
    const sizes = trainable.map((n) => state.params.get(n)!);
    if (sizes.some((t) => t.type !== 'float32')) return null;
    compiled ??= new WebAssembly.Module(Buffer.from(ADAMW_KERNEL_WASM, 'base64'));
    const k = new WebAssembly.Instance(compiled, {}).exports as unknown as KernelExports;
    // room for a chunk of rows: a megabyte, or one row of the widest table with its index
    const widest = Math.max(...sizes.map((t) => (4 * t.data.length) / Math.max(1, t.dims[0] ?? 1)));
    const scratchBytes = Math.max(SCRATCH_BYTES, 16 + align16(widest));
    const scratch = align16(k.heapBase());
    let at = scratch + scratchBytes;
    const tableRows = (t: Tensor) => t.dims[0] ?? 1;
    const bytes = at + sizes.reduce((s, t) => s + 4 * align16(4 * t.data.length) + align16(tableRows(t)), 0);
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
      const slot = { name, n, p: view(n), m: view(n), v: view(n), g: view(n), rows: tableRows(sizes[i]), touched: at };
      at += align16(slot.rows);
      return slot;
    });
    return new AdamWKernel(k, slots, scratch, scratchBytes);
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
    // the row width of each slot whose gradient came as rows (written in place, never made dense)
    const widths = this.slots.map((s, i) => {
      const g = grads[i];
      if (!Array.isArray(g)) {
        s.g.set(g);
        return 0;
      }
      this.bytes.fill(0, s.touched, s.touched + s.rows);
      for (const part of g) this.addRows(s, part);
      return s.n / s.rows;
    });
    let scale = 1;
    if (cfg.clipNorm !== undefined) {
      let ss = 0;
      this.slots.forEach((s, i) => {
        ss += widths[i] ? this.k.sumSquaresRows(s.g.byteOffset, s.touched, s.rows, widths[i]) : this.k.sumSquares(s.g.byteOffset, s.n);
      });
      scale = clipScaleOf(ss, cfg.clipNorm);
    }
    const c = hostStepConstants(lr, t, cfg, scale);
    this.k.setStep(c.beta1, c.beta2, c.a1, c.a2, c.keep, c.step, c.rootC2, c.eps);
    this.slots.forEach((s, i) => {
      const [p, g, m, v] = [s.p.byteOffset, s.g.byteOffset, s.m.byteOffset, s.v.byteOffset];
      if (widths[i]) this.k.updateRows(p, g, m, v, s.touched, s.rows, widths[i]);
      else this.k.update(p, g, m, v, s.n);
    });
  }

  /** Adds a part of a table's gradient rows into the slot's gradient, a scratch region's worth at a time. */
  private addRows(s: Slot, { idx, rows }: GradientRows): void {
    if (!idx.length) return;
    const w = s.n / s.rows;
    if (rows.length !== idx.length * w) throw new Error(`gradient rows of ${s.name}: ${rows.length} floats for ${idx.length} rows of ${w}`);
    const tableRows = s.rows;
    const per = Math.floor((this.scratchBytes - 16) / (8 + 4 * w));
    const idxBytes = new Uint8Array(idx.buffer, idx.byteOffset, idx.byteLength);
    for (let k0 = 0; k0 < idx.length; k0 += per) {
      const n = Math.min(per, idx.length - k0);
      const rowsAt = align16(this.scratch + 8 * n);
      this.bytes.set(idxBytes.subarray(8 * k0, 8 * (k0 + n)), this.scratch);
      this.floats.set(rows.subarray(w * k0, w * (k0 + n)), rowsAt / 4);
      const bad = this.k.addRows(s.g.byteOffset, s.touched, this.scratch, rowsAt, n, w, tableRows);
      if (bad >= 0) throw outsideTable(idx[k0 + bad], tableRows);
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
