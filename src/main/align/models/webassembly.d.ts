// The WebAssembly globals the aligner's kernels use (hmm-kernel.ts). Node has them, but
// TypeScript declares them only in lib.dom, which code of the main process must not see.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: ArrayBufferView | ArrayBuffer);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, unknown>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
}
