// End-to-end tests: the browser-mode server started in-process, driven through Debian's
// Chromium by playwright-core. Run after `npm run build` (the server serves out/renderer).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for what the app does in the background (a job's last message, a
    // saved edit). Its default of 1 s failed a CI run whose machine was busy: a 265-pair
    // re-segment preview, which starts its ICU workers, was still running after 1 s.
    expect: { poll: { timeout: 30_000 } },
  },
});
