// The CLI as the tests spawn it: src/cli/cli.ts bundled once per test run with esbuild (the transform
// tsx itself runs; packages stay external and load from node_modules, so this is the same code on the
// same dependencies). A child then starts in about 0.3 s instead of about 1 s of tsx transforming every
// source file again in each of the few hundred CLI children the suites spawn. `npm run cli` (tsx on
// the sources) is still spawned as is by test/cli/cli-args.test.ts. Beside it, the XLSX reader's
// worker entry, which core finds next to its own code (src/core/batch/xlsx-read-isolated.ts).
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

/**
 * Under node_modules so the bundle's package imports resolve from the project's node_modules; in a
 * folder named for the checkout, since several checkouts may share one node_modules (a link) and run at once.
 */
const BUNDLE_DIR = join(process.cwd(), 'node_modules', '.cache', 'procure-desk-tests', `cli-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}`);
export const CLI_BUNDLE = join(BUNDLE_DIR, 'cli.mjs');

export async function buildCliBundle(): Promise<void> {
  const entryPoints = { cli: join(process.cwd(), 'src', 'cli', 'cli.ts'), 'xlsx-read-worker': join(process.cwd(), 'src', 'core', 'batch', 'xlsx-read-worker.ts') };
  const result = await build({ entryPoints, outdir: BUNDLE_DIR, outExtension: { '.js': '.mjs' }, bundle: true, platform: 'node', format: 'esm', target: 'node24', packages: 'external', write: false, logLevel: 'warning' });
  if (result.outputFiles.length !== 2) throw new Error('esbuild wrote no CLI bundle');
  mkdirSync(BUNDLE_DIR, { recursive: true });
  // Written aside and renamed, the worker first: a second test run starting meanwhile never spawns half a file.
  for (const output of [...result.outputFiles].sort((a) => (basename(a.path) === 'cli.mjs' ? 1 : -1))) {
    const aside = `${output.path}.${process.pid}.tmp`;
    writeFileSync(aside, output.contents);
    renameSync(aside, output.path);
  }
}
