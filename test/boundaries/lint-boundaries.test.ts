// The process boundaries of docs/architecture.md are lint rules (eslint.config.js). This test lints
// one-line files placed in each layer and checks that a deliberate crossing is refused and the allowed
// imports pass, so a loosened rule fails here rather than in a reviewer's reading of the tree.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The boundary rule needs no type information; turning typed linting off lets a file that does not exist
// on disk be linted by its path.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }],
});

async function restrictedImportErrors(filePath: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${specifier}';\nexport const y = x;\n`, { filePath });
  if (result === undefined) throw new Error(`eslint returned no result for ${filePath}`);
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const refused: [string, string, string][] = [
  ['core → main', 'src/core/orders/probe.ts', '../../main/ipc/bind-ipc-handlers'],
  ['core → the web host', 'src/core/app/probe.ts', '../../web-host/run-web-host'],
  ['core → the CLI', 'src/core/probe.ts', '../cli/cli-context'],
  ['core → the renderer', 'src/core/probe.ts', '../renderer/src/lib/order-draft'],
  ['core → the sandbox', 'src/core/merchant/probe.ts', '../../sandbox/start-sandbox'],
  ['core → electron', 'src/core/probe.ts', 'electron'],
  ['preload → main', 'src/preload/probe.ts', '../main/ipc/bind-ipc-handlers'],
  ['preload → core', 'src/preload/probe.ts', '../core'],
  ['main → core internals', 'src/main/probe.ts', '../core/create-core'],
  ['main (nested) → core internals', 'src/main/secrets/probe.ts', '../../core/secrets/secret-store'],
  ['web host → core internals', 'src/web-host/probe.ts', '../core/app/app-service'],
  ['CLI → core internals', 'src/cli/commands/probe.ts', '../../core/orders/order-store'],
  ['CLI → main', 'src/cli/probe.ts', '../main/notifications'],
  ['shared → core', 'src/shared/probe.ts', '../core'],
  ['renderer → core', 'src/renderer/src/probe.ts', '../../core'],
  ['sandbox → core', 'src/sandbox/probe.ts', '../core'],
];

const allowed: [string, string, string][] = [
  ['core → shared', 'src/core/orders/probe.ts', '../../shared/money'],
  ['core → itself', 'src/core/orders/probe.ts', '../merchant/merchant-client'],
  ['preload → shared', 'src/preload/probe.ts', '../shared/ipc/contract'],
  ['main → core public entry', 'src/main/probe.ts', '../core'],
  ['CLI (nested) → core public entry', 'src/cli/commands/probe.ts', '../../core'],
  ['web host → core public entry', 'src/web-host/probe.ts', '../core'],
  ['web host → sandbox (its demo merchant)', 'src/web-host/probe.ts', '../sandbox/start-sandbox'],
];

describe('lint: process boundaries', () => {
  it.each(refused)('refuses %s', async (_name, file, specifier) => {
    expect(await restrictedImportErrors(file, specifier)).not.toEqual([]);
  });
  it.each(allowed)('allows %s', async (_name, file, specifier) => {
    expect(await restrictedImportErrors(file, specifier)).toEqual([]);
  });
});
