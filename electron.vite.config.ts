import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { bundledPackagesPlugin } from './scripts/licenses/bundled-packages-plugin';

const here = import.meta.dirname;
const coreEntry = resolve(here, 'src/core/index.ts');

// electron-vite 6 replaced `externalizeDepsPlugin()` (deprecated) with `build.externalizeDeps`.
export default defineConfig(({ command }) => {
  // In dev, React Fast Refresh needs an inline preamble script, which `script-src 'self'`
  // forbids. Vite marks its scripts with this nonce, and main (spawned by electron-vite with
  // this environment) adds exactly this nonce to the dev CSP. Builds get no nonce at all.
  const devScriptNonce = command === 'serve' ? randomBytes(18).toString('base64url') : undefined;
  if (devScriptNonce !== undefined) process.env['PROCURE_DESK_DEV_SCRIPT_NONCE'] = devScriptNonce;

  return {
    // Each bundle records the npm packages it holds (out/*/bundled-packages.json) for npm run licenses.
    main: {
      plugins: [bundledPackagesPlugin(here)],
      build: {
        // Native and heavy packages (better-sqlite3) must be loaded from node_modules at run
        // time, never bundled; externalizing every dependency keeps that true as more are added.
        externalizeDeps: true,
        // Three entries: main (out/main/index.js), the core process it forks with utilityProcess
        // (out/main/core-process.js, found beside main's own file: src/main/core-process-launcher.ts),
        // and the worker core reads batch XLSX files in (out/main/xlsx-read-worker.js, found beside
        // core's code: src/core/batch/xlsx-read-isolated.ts).
        lib: {
          entry: {
            index: resolve(here, 'src/main/index.ts'),
            'core-process': resolve(here, 'src/core/process/core-process-main.ts'),
            'xlsx-read-worker': resolve(here, 'src/core/batch/xlsx-read-worker.ts'),
          },
        },
        // src/core/index.ts only re-exports. Rolldown cannot see that by itself (the modules behind it
        // build zod schemas at load), so importing one name from it would pull all of core, SQLite
        // included, into main. Marked side-effect free, each name main uses comes from the module that
        // defines it and nothing else of core is bundled (test/shell/main-bundle.test.ts).
        rolldownOptions: { treeshake: { moduleSideEffects: (id: string) => id !== coreEntry } },
      },
    },
    preload: {
      plugins: [bundledPackagesPlugin(here)],
      build: {
        // A sandboxed preload cannot `require` anything but a few electron modules and cannot be
        // an ES module, so it is one self-contained CommonJS file (out/preload/index.cjs).
        externalizeDeps: false,
        lib: { entry: resolve(here, 'src/preload/index.ts') },
        rolldownOptions: { output: { format: 'cjs', codeSplitting: false } },
      },
    },
    renderer: {
      root: resolve(here, 'src/renderer'),
      html: devScriptNonce === undefined ? {} : { cspNonce: devScriptNonce },
      build: {
        // electron-vite leaves the renderer unminified; antd makes that a 3 MB script to parse.
        minify: true,
        rolldownOptions: { input: resolve(here, 'src/renderer/index.html') },
      },
      plugins: [react(), bundledPackagesPlugin(here)],
    },
  };
});
