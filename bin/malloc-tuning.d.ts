// The types of bin/malloc-tuning.js for the TypeScript that imports it (the CLI's entry, cli.ts;
// the benches).
export interface MallocOptions {
  /** glibc's `hugetlb=1` and `top_pad` tunables beside the threshold, for processes that run onnxruntime (default true). */
  onnxruntime?: boolean;
}
export function withMallocEnv(env: NodeJS.ProcessEnv, options?: MallocOptions): NodeJS.ProcessEnv;
export function relaunchWithMallocTuning(options?: MallocOptions): boolean;
export function userEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
