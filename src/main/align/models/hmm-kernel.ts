// The HMM aligner's posterior kernel (assembly/hmm-posteriors.ts, compiled to WebAssembly
// into hmm-kernel-bytes.ts) seen from TypeScript: one instance per thread, its linear memory
// laid out for the largest pair met so far (a 100-word pair needs ~0.6 MB). WebAssembly
// memory never shrinks, and small corpora align on the server's own thread, so a pair whose
// buffers take more than SHARED_BYTES gets an instance of its own, collected once the pair is
// done, rather than leaving the shared one that large for good.
import { HMM_KERNEL_WASM } from './hmm-kernel-bytes.ts';

interface KernelExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  setLayout(...addresses: number[]): void;
  posteriors(I: number, J: number, p0: number, step: number): void;
}

/** Largest need the thread's shared instance is laid out for (a pair of 1,000 words a side needs 65 MiB). */
export const SHARED_BYTES = 64 * 2 ** 20;

let compiled: WebAssembly.Module | null = null;
let shared: HmmKernel | null = null;

function instantiate(): HmmKernel {
  compiled ??= new WebAssembly.Module(Buffer.from(HMM_KERNEL_WASM, 'base64'));
  return new HmmKernel(new WebAssembly.Instance(compiled, {}).exports as unknown as KernelExports);
}

/** The kernel for a pair of gen length I and obs length J: this thread's, or a one-off for a huge pair. */
export function hmmKernel(I: number, J: number): HmmKernel {
  if (bytesFor(I, J) > SHARED_BYTES) return instantiate();
  return (shared ??= instantiate());
}

/** Bytes of the buffers of a pair of gen length I and obs length J. */
export function bytesFor(I: number, J: number): number {
  return bufferBytes((I + 1) * J, I, J).reduce((a, b) => a + b, 0);
}

/**
 * Bytes of each buffer, in setLayout's order, for `cells` cells and sides of `gen` and `obs`:
 * em, post, scaled, alpha (2 per cell), beta, scale (per obs), mem (per gen), act (i32 per
 * cell), nAct (i32 per obs), trans.
 */
function bufferBytes(cells: number, gen: number, obs: number): number[] {
  return [cells, cells, cells, 2 * cells, cells, obs, gen, cells / 2, obs / 2, transitionsLength(gen)].map((n) => 8 * Math.ceil(n));
}

/** Bytes of this thread's shared instance's memory (0 before its first use). */
export function sharedKernelBytes(): number {
  return shared?.bytes ?? 0;
}

/** Size in elements of the transition block of gen length I (see the kernel's header). */
export function transitionsLength(I: number): number {
  return (I + 1) * I + I * I + I;
}

export class HmmKernel {
  /** capacity: cells of the largest local matrix, (I+1)·J, the longest gen and obs sides */
  private cells = 0;
  private gen = 0;
  private obs = 0;
  private em = new Float64Array(0);
  private post = new Float64Array(0);
  private trans = new Float64Array(0);
  private loaded: Float64Array | null = null;

  constructor(private readonly x: KernelExports) {}

  get bytes(): number {
    return this.x.memory.buffer.byteLength;
  }

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

  /** Lays the buffers out again (growing 1.5× past the need) when pair (I, J) does not fit. */
  private fit(I: number, J: number): void {
    if ((I + 1) * J <= this.cells && I <= this.gen && J <= this.obs) return;
    const grow = (need: number, have: number) => (need <= have ? have : Math.max(need, Math.ceil(have * 1.5)));
    const cells = grow((I + 1) * J, this.cells),
      gen = grow(I, this.gen),
      obs = grow(J, this.obs);
    const bytes = bufferBytes(cells, gen, obs);
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
    this.trans = new Float64Array(buf, addresses[9], transitionsLength(gen));
    this.cells = cells;
    this.gen = gen;
    this.obs = obs;
    this.loaded = null;
  }
}
