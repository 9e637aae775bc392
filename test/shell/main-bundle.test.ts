// Main's bundle, built with the project's own electron-vite config: core runs in its own process, so
// out/main/index.js (and every chunk it loads) must hold no core — no better-sqlite3, no createCore —
// while out/main/core-process.js, the entry main forks with utilityProcess, holds it. This is what
// marking core's entry barrel side-effect free in electron.vite.config.ts buys; a host import that drags
// core back into main fails here. Beside them, the batch XLSX reader's worker entry, run as built.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { resolveConfig } from 'electron-vite';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xlsx } from '../core/batch/batch-fixtures';

const root = join(import.meta.dirname, '../..');
const outDir = mkdtempSync(join(tmpdir(), 'pd-main-bundle-'));
let mainDir = '';

beforeAll(async () => {
  const savedNodeEnv = process.env['NODE_ENV'];
  try {
    const resolved = await resolveConfig({ root, logLevel: 'silent', build: { outDir } }, 'build', 'production');
    const main = resolved.config?.main;
    if (main === undefined) throw new Error('electron.vite.config.ts has no main build');
    await build({ ...main, logLevel: 'silent' });
    mainDir = main.build?.outDir ?? '';
  } finally {
    process.env['NODE_ENV'] = savedNodeEnv;
  }
}, 120_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The code a file loads: itself and, transitively, every chunk of the build it imports. */
function loadedCode(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return '';
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  const chunks = [...code.matchAll(/(?:from|import)\s*"(\.\/[^"]+)"/g)].map((m) => join(dirname(file), m[1] ?? ''));
  return [code, ...chunks.map((chunk) => loadedCode(chunk, seen))].join('\n');
}

describe("main's bundle", () => {
  it('builds main and the core process side by side', () => {
    expect(mainDir.startsWith(outDir)).toBe(true);
    expect(existsSync(join(mainDir, 'index.js'))).toBe(true);
    expect(existsSync(join(mainDir, 'core-process.js'))).toBe(true);
  });

  it('keeps core out of main: main loads no SQLite and cannot open core', () => {
    const main = loadedCode(join(mainDir, 'index.js'));
    expect(main).toContain('function createCoreSupervisor(');
    expect(main).toContain('utilityProcess');
    expect(main).not.toContain('better-sqlite3');
    expect(main).not.toContain('function createCore(');
    expect(main).not.toContain('function createAppService(');
  });

  it('relies on core’s entry being re-exports only (the bundler is told it has no side effects)', () => {
    const statements = readFileSync(join(root, 'src/core/index.ts'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('//'));
    expect(statements.filter((line) => !/^export (type )?\{[^}]*\} from '\.\/[^']+';$/.test(line))).toEqual([]);
  });

  it('puts core in the core process entry', () => {
    const core = loadedCode(join(mainDir, 'core-process.js'));
    expect(core).toContain('better-sqlite3');
    expect(core).toContain('function createCore(');
    expect(core).not.toContain('utilityProcess');
  });

  it('builds the XLSX reader worker beside the core process, where core looks for it, and it reads as built', async () => {
    const core = readFileSync(join(mainDir, 'core-process.js'), 'utf8');
    expect(core).toContain('"xlsx-read-worker"');
    const entry = join(mainDir, 'xlsx-read-worker.js');
    expect(existsSync(entry)).toBe(true);
    // The build keeps packages external: they resolve from the project's node_modules, as in the app.
    symlinkSync(join(root, 'node_modules'), join(outDir, 'node_modules'));
    const bytes = await xlsx(['手机号'], [['13800138000']]);
    const answer = await new Promise<unknown>((resolve, reject) => {
      const worker = new Worker(entry, { workerData: bytes });
      worker.once('message', (message: unknown) => {
        resolve(message);
        void worker.terminate();
      });
      worker.once('error', reject);
    });
    expect(answer).toEqual({ kind: 'rows', rows: [{ rowNumber: 1, cells: ['手机号'] }, { rowNumber: 2, cells: ['13800138000'] }] });
  });
});
