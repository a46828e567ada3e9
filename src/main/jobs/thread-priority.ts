// The job threads' scheduling priority in a process that answers a user (the app's window or
// `mekong serve`): its worker threads (the Align job's EM slices, training, imports'
// segmentation pool) run at a lower priority than the thread that answers the editor, so that
// an edit made while a long job computes is not queued behind the job's threads on a busy CPU.
// The editor's edit → committed p99 while the Align job ran its EM was ~207 ms on two cores,
// with the serving thread idle and only waiting for a core (docs/experiments.md, "The app at a
// million pairs (2)"). The command-line tools keep every thread at the normal priority: a
// `mekong align` has nobody to answer and should not lose the CPU to other processes.
//
// Only on Linux: there a thread's nice value is its own (setpriority with who = 0 changes the
// calling thread, and threads it creates inherit it: a worker's own workers and ONNX Runtime's
// pools). On macOS and Windows the same call changes the whole process, the serving thread
// included, so it is not made there.
import { getPriority, setPriority } from 'node:os';

/** How much lower a job thread runs (the nice value added; 19 is the lowest). */
export const JOB_THREAD_NICE = 10;

let background = false;

/** From now on, worker threads this process starts run at the lower priority (the app calls it once). */
export function runJobThreadsInBackground(): void {
  background = process.platform === 'linux';
}

/** Whether a worker started now should lower its priority (spawn-worker.ts passes it on). */
export function jobThreadsInBackground(): boolean {
  return background;
}

/** Lowers the calling thread's priority by JOB_THREAD_NICE (a worker thread calls it first). */
export function lowerThisThread(): void {
  try {
    setPriority(0, Math.min(19, getPriority(0) + JOB_THREAD_NICE));
  } catch {
    // a container may forbid it; the job then runs at the normal priority
  }
}
