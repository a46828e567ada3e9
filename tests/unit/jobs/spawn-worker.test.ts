import { expect, test } from 'vitest';
import { spawnWorker } from '../../../src/main/jobs/spawn-worker.ts';

test('a TypeScript worker runs under plain Node', async () => {
  const w = spawnWorker(new URL('./fixtures/echo.worker.ts', import.meta.url));
  const reply = await new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
    w.postMessage(21);
  });
  await w.terminate();
  expect(reply).toBe(42);
});
