// The CLI as the tests spawn it: src/cli/cli.ts bundled once per test run with esbuild (the transform
// tsx itself runs; packages stay external and load from node_modules, so this is the same code on the
// same dependencies). A child then starts in about 0.3 s instead of about 1 s of tsx transforming every
// source file again in each of the few hundred CLI children the suites spawn. `npm run cli` (tsx on
// the sources) is still spawned as is by test/cli/cli-args.test.ts.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Under node_modules so the bundle's package imports resolve from the project's node_modules; named by
 * the checkout, so two checkouts sharing one node_modules (worktrees) never run each other's CLI.
 */
export const CLI_BUNDLE = join(process.cwd(), 'node_modules', '.cache', 'procure-desk-tests', `cli-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}.mjs`);

export async function buildCliBundle(): Promise<void> {
  const result = await build({ entryPoints: [join(process.cwd(), 'src', 'cli', 'cli.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node24', packages: 'external', write: false, logLevel: 'warning' });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild wrote no CLI bundle');
  mkdirSync(join(CLI_BUNDLE, '..'), { recursive: true });
  // Written aside and renamed: a second test run starting meanwhile never spawns half a file.
  const aside = `${CLI_BUNDLE}.${process.pid}.tmp`;
  writeFileSync(aside, output.contents);
  renameSync(aside, CLI_BUNDLE);
}
