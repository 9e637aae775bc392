// Electronegativity (Doyensec) over the Electron side of the app, from its own pinned install outside
// the project (scripts/tools/electronegativity: package.json + lock; scripts/tools/isolated-install.ts),
// offline (scripts/tools/electronegativity/run-scan.cjs). Writes a CSV and exits 1 on any HIGH or
// MEDIUM finding: there is no list of accepted findings; code that trips a check is changed instead.
//   npm run electronegativity [-- [--input <folder>] [<output.csv>]]   default: the app, test-results/electronegativity.csv
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { contentSecurityPolicy } from '../src/shared/content-security-policy';
import { INSTALL_FAILED_EXIT, ToolInstallError, ensureIsolatedInstall, lockedVersion } from './tools/isolated-install';
import { parseFindings, toCsv, type Finding } from './tools/electronegativity/findings';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const TOOL_DIR = join(root, 'scripts/tools/electronegativity');
const TOOL_PACKAGE = '@doyensec/electronegativity';

/** The Electron the app pins, given to the scan so it never guesses (or fetches) one. */
const electronVersion = (): string => (JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;

/**
 * Copies what is scanned into a fresh folder: src/main (core included), src/preload and the page's
 * index.html. Global checks (CSP, navigation limits, permission handler) must see the three together.
 * The page's policy is sent as a header by the app:// protocol (src/shared/content-security-policy.ts),
 * which a static scan cannot follow, so the staged index.html carries that very policy in a meta tag.
 */
export function stageApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'procure-electronegativity-'));
  cpSync(join(root, 'src/main'), join(dir, 'main'), { recursive: true });
  cpSync(join(root, 'src/preload'), join(dir, 'preload'), { recursive: true });
  mkdirSync(join(dir, 'renderer'));
  const html = readFileSync(join(root, 'src/renderer/index.html'), 'utf8');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}" />`;
  writeFileSync(join(dir, 'renderer/index.html'), html.replace(/<head>/i, `<head>\n    ${meta}`));
  return dir;
}

const scanResult = z.object({
  issues: z.array(
    z.object({
      id: z.string(),
      severity: z.object({ name: z.string() }),
      confidence: z.object({ name: z.string() }),
      file: z.string(),
      location: z.object({ line: z.number(), column: z.number() }),
      sample: z.string().nullish(),
      description: z.string(),
    }),
  ),
  errors: z.array(z.object({ file: z.string(), message: z.string(), tolerable: z.boolean() })),
});

/** Installs the pinned tool if needed (ToolInstallError when it cannot), scans `input`, writes the CSV to `outFile`. */
export function scan(input: string, outFile: string): Finding[] {
  const installDir = ensureIsolatedInstall(TOOL_DIR, 'electronegativity', lockedVersion(TOOL_DIR, TOOL_PACKAGE));
  const work = mkdtempSync(join(tmpdir(), 'procure-electronegativity-result-'));
  try {
    const resultFile = join(work, 'result.json');
    // Its own process: the tool's modules (eslint 7, got, i18n with globals) never load into this one.
    const child = spawnSync(process.execPath, [join(TOOL_DIR, 'run-scan.cjs'), installDir, input, electronVersion(), resultFile], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.status !== 0) throw new Error(`Electronegativity failed (exit ${String(child.status)}): ${child.stderr.trim()}`);
    const result = scanResult.parse(JSON.parse(readFileSync(resultFile, 'utf8')));
    const unparsed = result.errors.filter((e) => !e.tolerable);
    if (unparsed.length > 0) throw new Error(`Electronegativity could not parse: ${unparsed.map((e) => `${e.file}: ${e.message}`).join('; ')}`);
    const findings = result.issues.map(
      (issue): Finding => ({
        check: issue.id,
        severity: issue.severity.name,
        confidence: issue.confidence.name,
        file: issue.file,
        location: `${issue.location.line}:${issue.location.column}`,
        sample: issue.sample ?? 'N/A',
        description: issue.description,
      }),
    );
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, toCsv(findings));
    return parseFindings(readFileSync(outFile, 'utf8'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const isSevere = (f: Finding): boolean => f.severity === 'HIGH' || f.severity === 'MEDIUM';

/** Scans the staged app (or `input` as it is), prints the findings; answers the exit code. */
function main(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, options: { input: { type: 'string' } }, allowPositionals: true });
  const outFile = resolve(positionals[0] ?? join(root, 'test-results/electronegativity.csv'));
  const staged = values.input === undefined;
  const input = values.input === undefined ? stageApp() : resolve(values.input);
  try {
    const findings = scan(input, outFile);
    for (const f of findings) console.log(`${f.severity.padEnd(13)} ${f.check}  ${f.file}:${f.location}  ${f.sample}`);
    console.log(`${findings.length} findings written to ${outFile}`);
    const severe = findings.filter(isSevere);
    for (const f of severe) console.error(`electronegativity: ${f.severity} ${f.check} ${f.file}:${f.location}: ${f.description}`);
    return severe.length === 0 ? 0 : 1;
  } finally {
    if (staged) rmSync(input, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = error instanceof ToolInstallError ? INSTALL_FAILED_EXIT : 1;
  }
}
