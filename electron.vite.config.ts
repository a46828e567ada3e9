// Builds the three parts of the desktop app: main (Node side, with its worker entries),
// preload (sandboxed, so CommonJS) and the Svelte renderer. The same renderer build is
// what browser mode (`mekong serve`) serves.
import { basename, resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { readdirSync } from 'node:fs';

const workerEntries = Object.fromEntries(
  readdirSync('src/main', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.worker.ts'))
    .map((f) => [basename(f, '.ts'), resolve('src/main', f)]),
);

export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve('src/main/electron/desktop-main.ts'), cli: resolve('src/main/cli.ts'), ...workerEntries },
        output: { entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve('src/preload/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    // assetsInlineLimit 0: small font subsets would otherwise become data: URLs, which the CSP's font-src 'self' blocks.
    build: { assetsInlineLimit: 0, rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
    plugins: [svelte({ configFile: resolve('svelte.config.js') })],
  },
});
