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
  },
});
