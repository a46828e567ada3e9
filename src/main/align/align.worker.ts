// Worker thread entry of EM on slices of the pairs (runner.ts), serving the job protocol's
// tasks (jobs/serve-worker.ts): 'start' gives it its slice of the pairs (em-slice.ts), whose
// tables live in SharedArrayBuffers; each 'step' runs one EM iteration on it and answers with
// the slice's result (the last one names the file of its links); 'finish' runs the last
// lexicon M-step.
import { serveWorker } from '../jobs/serve-worker.ts';
import { EmSlice, type SliceStepResult } from './em-slice.ts';
import type { SliceMessage } from './runner.ts';

let slice: EmSlice | undefined;
serveWorker<SliceMessage, SliceStepResult | null>((m) => {
  if (m.type === 'start') {
    slice = new EmSlice(m.job);
    return null;
  }
  if (!slice) throw new Error('EM worker: no slice yet');
  if (m.type === 'step') return slice.step(m.step);
  slice.maximize();
  return null;
});
