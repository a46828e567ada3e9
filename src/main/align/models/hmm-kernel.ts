// The HMM aligner's posterior kernel (assembly/hmm-posteriors.ts, compiled to WebAssembly
// into hmm-kernel-bytes.ts) seen from TypeScript: one instance per thread, its linear memory
// laid out for the largest pair met so far (memory only grows; a 100-word pair needs ~0.6 MB).
import { HMM_KERNEL_WASM } from './hmm-kernel-bytes.ts';

interface KernelExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  setLayout(...addresses: number[]): void;
  posteriors(I: number, J: number, p0: number, step: number): void;
}

let compiled: WebAssembly.Module | null = null;
let shared: HmmKernel | null = null;

/** This thread's kernel (compiled and instantiated on first use). */
export function hmmKernel(): HmmKernel {
  compiled ??= new WebAssembly.Module(Buffer.from(HMM_KERNEL_WASM, 'base64'));
  shared ??= new HmmKernel(new WebAssembly.Instance(compiled, {}).exports as unknown as KernelExports);
  return shared;
}

/** Size in elements of the transition block of gen length I (see the kernel's header). */
export function transitionsLength(I: number): number {
  return (I + 1) * I + I * I + I;
}

export class HmmKernel {
  /** capacity: cells of the largest local matrix, (I+1)·J, and the longest side */
  private cells = 0;
  private side = 0;
  private em = new Float64Array(0);
  private post = new Float64Array(0);
  private trans = new Float64Array(0);
  private loaded: Float64Array | null = null;

  constructor(private readonly x: KernelExports) {}

  /**
   * post ← the posteriors of em (gen length I, obs length J, DirectionalModel's layout) under
   * the transition block `trans` (transitionsLength(I) values) and null probability p0, after
   * one fertility dual step of size `step`.
   */
  posteriors(em: Float64Array, I: number, J: number, trans: Float64Array, p0: number, step: number, post: Float64Array): void {
    this.fit(I, J);
    if (this.loaded !== trans) {
      this.trans.set(trans);
      this.loaded = trans;
    }
    const n = (I + 1) * J;
    this.em.set(em.subarray(0, n));
    this.x.posteriors(I, J, p0, step);
    post.set(this.post.subarray(0, n));
  }

  /** Lays the buffers out again (1.5× the need) when pair (I, J) does not fit. */
  private fit(I: number, J: number): void {
    if ((I + 1) * J <= this.cells && Math.max(I, J) <= this.side) return;
    const cells = Math.max((I + 1) * J, Math.ceil(this.cells * 1.5));
    const side = Math.max(I, J, Math.ceil(this.side * 1.5));
    // em, post, scaled, alpha (2 per cell), beta, scale, mem, act (i32), nAct (i32), trans
    const bytes = [cells, cells, cells, 2 * cells, cells, side, side, cells / 2, side / 2, transitionsLength(side)].map(
      (n) => 8 * Math.ceil(n),
    );
    const addresses: number[] = [];
    let end = this.x.heapBase();
    for (const b of bytes) {
      end = (end + 15) & ~15;
      addresses.push(end);
      end += b;
    }
    const pages = Math.ceil(end / 65536) - this.x.memory.buffer.byteLength / 65536;
    if (pages > 0) this.x.memory.grow(pages);
    this.x.setLayout(...addresses);
    const buf = this.x.memory.buffer;
    this.em = new Float64Array(buf, addresses[0], cells);
    this.post = new Float64Array(buf, addresses[1], cells);
    this.trans = new Float64Array(buf, addresses[9], transitionsLength(side));
    this.cells = cells;
    this.side = side;
    this.loaded = null;
  }
}
