// A file URL's pathname is no path on Windows, and neither is `file://` glued to one: eslint.config.js
// refuses both everywhere (src, test, scripts, bench). Lints one-line files, as lint-boundaries does, so a
// loosened selector fails here; an http URL's pathname and a file URL that is only data stay allowed.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }],
});

async function fileUrlErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { join } from 'node:path';\nexport const probe = ${code};\nexport const used = join;\n`, { filePath });
  if (result === undefined) throw new Error(`eslint returned no result for ${filePath}`);
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const refused: [string, string, string][] = [
  ['a folder next to a test', 'test/shell/probe.test.ts', "new URL('../..', import.meta.url).pathname"],
  ['the module itself', 'bench/probe.bench.ts', 'new URL(import.meta.url).pathname'],
  ['a file URL literal', 'scripts/probe.ts', "new URL('file:///etc/hosts').pathname"],
  ['in src too', 'src/core/probe.ts', "new URL('./x.sql', import.meta.url).pathname"],
  ['file:// glued to a path', 'test/core/export/probe.test.ts', "`file://${join('a', 'b')}/profile`"],
  ['file:/// glued to a path', 'test/probe.ts', "`file:///${join('a', 'b')}`"],
];

const allowed: [string, string, string][] = [
  ['fileURLToPath', 'test/shell/probe.test.ts', "(await import('node:url')).fileURLToPath(new URL('../..', import.meta.url))"],
  ['an http URL\'s pathname', 'test/core/orders/probe.test.ts', "new URL('https://merchant.example/openapi/v1/goods').pathname"],
  ['a file URL kept as a URL (fs takes URLs)', 'scripts/probe.ts', "new URL('../resources/icon.png', import.meta.url)"],
  ['a file URL as data', 'test/core/images/probe.test.ts', '`file:///etc/passwd`'],
];

describe('lint: file URLs are converted, never taken apart', () => {
  it.each(refused)('refuses %s', async (_name, file, code) => {
    expect(await fileUrlErrors(file, code)).toHaveLength(1);
  });
  it.each(allowed)('allows %s', async (_name, file, code) => {
    expect(await fileUrlErrors(file, code)).toEqual([]);
  });
});
