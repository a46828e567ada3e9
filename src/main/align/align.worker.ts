// Worker thread entry: a 'start' message gives it its slice of the pairs (em-slice.ts);
// each 'step' message runs one EM iteration on it and is answered with the slice's result
// (its links' buffers moved, not copied); a 'finish' message runs the last lexicon M-step
// and is answered with null.
import { parentPort } from 'node:worker_threads';
import { linkBuffers } from './decode.ts';
import { EmSlice } from './em-slice.ts';
import type { SliceMessage } from './runner.ts';

let slice: EmSlice | undefined;
parentPort!.on('message', (m: SliceMessage) => {
  if (m.type === 'start') slice = new EmSlice(m.job);
  else if (m.type === 'step') {
    const r = slice!.step(m.step);
    parentPort!.postMessage(r, r.links ? linkBuffers(r.links) : []);
  } else {
    slice!.maximize();
    parentPort!.postMessage(null);
  }
});
