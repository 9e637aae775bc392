// Electronegativity over main, the preload and the page, run as `npm run electronegativity` runs it:
// the real tool from its pinned install outside the project (scripts/electronegativity.ts), offline.
// Any HIGH or MEDIUM finding fails. Skipped, saying so, only when the npm registry cannot be reached
// for the first install.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSevere } from '../../scripts/electronegativity';
import { parseFindings, toCsv, type Finding } from '../../scripts/tools/electronegativity/findings';
import { INSTALL_FAILED_EXIT, lockedVersion, npmCli, toolsCacheRoot } from '../../scripts/tools/isolated-install';

const root = join(import.meta.dirname, '..', '..');
const toolDir = join(root, 'scripts/tools/electronegativity');
const work = mkdtempSync(join(tmpdir(), 'procure-electronegativity-test-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** scripts/electronegativity.ts in a process of its own, as `npm run electronegativity -- …args`. */
function runScript(args: string[]): Run {
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/electronegativity.ts'), ...args], { cwd: root, encoding: 'utf8', timeout: 280_000 });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** Why the tests cannot run here, if the first install failed because the registry is out of reach. */
function registryUnreachable(): string | undefined {
  const ping = spawnSync(process.execPath, [npmCli(), 'ping', '--fetch-timeout=10000', '--fetch-retries=0'], { encoding: 'utf8', timeout: 30_000 });
  return ping.status === 0 ? undefined : `the npm registry is unreachable, so Electronegativity could not be installed (npm ping: ${ping.stderr.trim()})`;
}

let app: Run;
let findings: Finding[] = [];
let skipReason: string | undefined;

beforeAll(() => {
  app = runScript([join(work, 'app.csv')]);
  if (app.code === INSTALL_FAILED_EXIT) skipReason = registryUnreachable();
  if (skipReason === undefined && existsSync(join(work, 'app.csv'))) findings = parseFindings(readFileSync(join(work, 'app.csv'), 'utf8'));
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('Electronegativity on the app', () => {
  it('ran and found no HIGH or MEDIUM issue', (ctx) => {
    ctx.skip(skipReason !== undefined, skipReason);
    expect(app.code, app.stderr).toBe(0);
    const severe = findings.filter(isSevere).map((f) => `${f.severity} ${f.check} ${f.file}:${f.location} ${f.sample}`);
    expect(severe).toEqual([]);
  });

  it('scanned the shell: the checks that read main saw its sandboxed window', (ctx) => {
    ctx.skip(skipReason !== undefined, skipReason);
    // A scan of an empty or unparsable folder would also find nothing severe.
    expect(findings.some((f) => f.file.startsWith('main/'))).toBe(true);
  });

  it('saw the app as one: the CSP, navigation limits and permission handler were all found', (ctx) => {
    ctx.skip(skipReason !== undefined, skipReason);
    expect(findings.filter((f) => f.file === 'N/A' && isSevere(f))).toEqual([]);
    expect(findings.some((f) => f.file === 'renderer/index.html')).toBe(true);
  });
});

describe('Electronegativity stays a gate', () => {
  it('fails on a planted insecure window, naming the checks it trips', (ctx) => {
    ctx.skip(skipReason !== undefined, skipReason);
    const planted = join(work, 'planted');
    mkdirSync(join(planted, 'main'), { recursive: true });
    writeFileSync(
      join(planted, 'main/window.ts'),
      "import { BrowserWindow } from 'electron';\nexport const win = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n",
    );
    const run = runScript(['--input', planted, join(work, 'planted.csv')]);
    expect(run.code, run.stderr).toBe(1);
    const severe = parseFindings(readFileSync(join(work, 'planted.csv'), 'utf8')).filter(isSevere);
    expect(severe.map((f) => `${f.check} ${f.file}`)).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK main/window.ts', 'SANDBOX_JS_CHECK main/window.ts']));
    expect(run.stderr).toContain('HIGH CONTEXT_ISOLATION_JS_CHECK main/window.ts:2:');
  }, 300_000);
});

describe('Electronegativity is installed apart from the project', () => {
  it('comes from its own lock, in a cache folder outside the project, never from node_modules', (ctx) => {
    ctx.skip(skipReason !== undefined, skipReason);
    const version = lockedVersion(toolDir, '@doyensec/electronegativity');
    expect(version).toBe('1.10.3');
    const installed = join(toolsCacheRoot(), `electronegativity-${version}`, 'node_modules/@doyensec/electronegativity/package.json');
    expect((JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version).toBe(version);
    expect(existsSync(join(root, 'node_modules/@doyensec/electronegativity'))).toBe(false);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; dependencies: Record<string, string> };
    expect({ ...pkg.dependencies, ...pkg.devDependencies }).not.toHaveProperty('@doyensec/electronegativity');
  });

  it('scans offline: a connection attempt from the scan process ends it (offline-guard.cjs)', () => {
    const attempt = "require(process.argv[1]); require('node:https').get('https://registry.npmjs.org/').on('error', () => {}); setTimeout(() => process.exit(0), 5000);";
    const child = spawnSync(process.execPath, ['-e', attempt, join(toolDir, 'offline-guard.cjs')], { encoding: 'utf8', timeout: 30_000 });
    expect(child.status).toBe(3);
    expect(child.stderr).toContain('the scan tried to reach the network');
  });
});

describe('Electronegativity CSV', () => {
  it('writes and reads its format, quotes and line breaks inside fields included', () => {
    const csv = [
      'issue, severity, confidence, filename, location, sample, description, url',
      'X_CHECK,"HIGH","FIRM","a/b.ts","1:2","say(""hi, there"")\n  more","desc, with comma",https://example.com',
      'Y_CHECK,"LOW","TENTATIVE","N/A","0:0",N/A,"d",https://example.com',
    ].join('\n');
    const expected = [
      { check: 'X_CHECK', severity: 'HIGH', confidence: 'FIRM', file: 'a/b.ts', location: '1:2', sample: 'say("hi, there")\n  more', description: 'desc, with comma' },
      { check: 'Y_CHECK', severity: 'LOW', confidence: 'TENTATIVE', file: 'N/A', location: '0:0', sample: 'N/A', description: 'd' },
    ];
    expect(parseFindings(csv)).toEqual(expected);
    expect(parseFindings(toCsv(expected))).toEqual(expected);
    expect(() => parseFindings('nothing')).toThrow();
  });
});
