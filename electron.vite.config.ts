import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// electron-vite 6 replaced `externalizeDepsPlugin()` (deprecated) with `build.externalizeDeps`.
export default defineConfig({
  main: {
    build: {
      // Native and heavy packages (better-sqlite3) must be loaded from node_modules at run
      // time, never bundled; externalizing every dependency keeps that true as more are added.
      externalizeDeps: true,
      lib: { entry: resolve(import.meta.dirname, 'src/main/index.ts') },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot `require` anything but a few electron modules and cannot be
      // an ES module, so it is one self-contained CommonJS file (out/preload/index.cjs).
      externalizeDeps: false,
      lib: { entry: resolve(import.meta.dirname, 'src/preload/index.ts') },
      rolldownOptions: { output: { format: 'cjs', codeSplitting: false } },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    build: {
      rolldownOptions: { input: resolve(import.meta.dirname, 'src/renderer/index.html') },
    },
    plugins: [react()],
  },
});
