// Unit tests: plain Node, real SQLite files and real ONNX sessions; no Electron. The Svelte
// plugin compiles the renderer's rune modules (*.svelte.ts) so that their state classes
// (the editor's, the train form's) are tested here too, over the real API dispatch.
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [svelte({ configFile: resolve('svelte.config.js') })],
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for saves and jobs that run in the background; 1 s (its default) is
    // too short when CI's machine is busy (see vitest.e2e.config.ts).
    expect: { poll: { timeout: 30_000 } },
  },
});
