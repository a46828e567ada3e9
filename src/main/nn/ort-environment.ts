// onnxruntime-node 1.30 (Linux) starts Microsoft's 1DS telemetry client when a process
// creates its first session, and that client leaves an empty /tmp/mat-debug-<pid>.log and a
// /tmp/.ses file behind for every process that ever ran a model (54 after one morning of
// tests). ORT_DISABLE_TELEMETRY=1, read from the process's environment when onnxruntime
// creates its environment, turns the client off. It must be set in the main thread: a worker
// thread's process.env is its own copy, which the native library never reads. So it is set
// before the first session opens here and before any worker starts (jobs/spawn-worker.ts).
// A value the user set is kept.
export function quietOnnxRuntime(): void {
  process.env.ORT_DISABLE_TELEMETRY ??= '1';
}
