// collect-garbage.ts: a dead typed array's memory goes back once asked, where V8 alone would
// keep it until some later allocation prompted a collection.
import { expect, test } from 'vitest';
import { collectGarbage } from '../../../src/main/align/collect-garbage.ts';

test("a dead array's memory goes back after collectGarbage", async () => {
  let a: Int32Array | null = new Int32Array(16 * 2 ** 20).fill(1);
  const alive = process.memoryUsage().arrayBuffers;
  expect(a[7]).toBe(1);
  a = null;
  collectGarbage();
  // V8 frees the backing store on its sweeper thread, shortly after the collection
  const deadline = Date.now() + 5000;
  while (process.memoryUsage().arrayBuffers > alive - 60 * 2 ** 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(process.memoryUsage().arrayBuffers).toBeLessThan(alive - 60 * 2 ** 20);
});
