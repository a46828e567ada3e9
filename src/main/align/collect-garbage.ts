// A full garbage collection on request, for a phase that leaves tens of megabytes of dead
// typed arrays behind just before the next phase allocates its own, or before a thread idles.
// V8 frees an ArrayBuffer's memory only when a collection finds it dead, and starts one for
// ArrayBuffers only after about 64 MB more of them have been allocated since the last: the
// aligner's corpus numbering (corpus-file.ts), whose pool of word pairs is copied as it grows
// and whose provisional ids die once the final ones are written, peaked with 30–65 MB of dead
// arrays still counted, by chance of when V8 last collected (dup100k 268–278 MB, cycled400k
// 274–303 MB, where the EM after it needs ~240 MB); and the calling thread, idle through
// the EM, kept whatever its setup left dead (one dup100k run in three 30 MB higher all
// through the EM). Collected at those points: dup100k 236–239 MB in four runs, cycled400k
// 248–249 MB in two (docs/experiments.md).
// Node exposes the collector only under --expose-gc; setting that flag at run time makes
// `gc` a global of contexts created afterwards, from which one is taken here. Where the flag
// cannot be set, nothing is collected (the peak is then left to chance as before).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/** Runs a full collection (the arrays' memory goes back shortly after, on V8's sweeper thread). */
export function collectGarbage(): void {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
}
