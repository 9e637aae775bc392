// The first hour's pieces as a fresh clone meets them (issue 26): installs that speak (npm reads the
// project .npmrc as loglevel warn, never silent), a Node older than .node-version stopped at once with
// one sentence saying what to install — by every npm script (scripts/require-node.cjs, plain CommonJS
// that any old Node runs) and by `npm ci` (engine-strict) — run for real with the machine's older Node
// when it has one (Debian's /usr/bin/node is 20 here), and with a raised .node-version on any machine.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { npmCommand } from '../support/npm-command';

const required = Number(readFileSync('.node-version', 'utf8').trim());
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string>; engines: { node: string } };
const GUARD = 'node scripts/require-node.cjs && ';

/** The machine's other Node, when it is older than the one required (Debian's package, here 20). */
const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
  if (!existsSync(path)) return false;
  const major = Number(spawnSync(path, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim());
  return major > 0 && major < required;
});
const oldNodeVersion = OLD_NODE === undefined ? '' : spawnSync(OLD_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
/** PATH where `node` and `npm` are the old ones: the old Node's folder first, nothing of ours. */
const OLD_PATH = OLD_NODE === undefined ? '' : `${dirname(OLD_NODE)}:/usr/bin:/bin`;

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function expectTheSentence(stderr: string, version: string): void {
  expect(stderr).toContain(`Procure Desk needs Node.js ${required} or newer, but this is Node.js ${version}`);
  expect(stderr).toContain(`install Node.js ${required} LTS (https://nodejs.org/, or \`nvm install ${required}\`) and run the command again.`);
  expect(stderr).toContain(`采购台需要 Node.js ${required} 或更新版本`);
  // One sentence (and its Chinese), nothing else.
  expect(stderr.trim().split('\n')).toHaveLength(2);
}

describe('installs that speak', () => {
  it('npm reads the project .npmrc as loglevel warn and engine-strict (not silent)', () => {
    const get = (key: string): string => {
      const npm = npmCommand(['config', 'get', key]);
      return spawnSync(npm.command, npm.args, { encoding: 'utf8' }).stdout.trim();
    };
    expect(get('loglevel')).toBe('warn');
    expect(get('engine-strict')).toBe('true');
    expect(readFileSync('.npmrc', 'utf8')).not.toMatch(/^\s*loglevel\s*=\s*silent/m);
    expect(readFileSync('.ci/run', 'utf8')).not.toMatch(/loglevel=silent/);
    expect(pkg.engines.node).toBe(`>=${required}`);
  });
});

describe('a Node older than .node-version', () => {
  it('is stopped by the first step of every npm script', () => {
    for (const [name, command] of Object.entries(pkg.scripts)) expect(command.startsWith(GUARD), name).toBe(true);
  });

  it('gets the one sentence and exit 1 from the guard (a copy that asks for Node 999, on this Node)', () => {
    const root = mkdtempSync(join(tmpdir(), 'procure-node-guard-'));
    made.push(root);
    mkdirSync(join(root, 'scripts'));
    copyFileSync('scripts/require-node.cjs', join(root, 'scripts', 'require-node.cjs'));
    writeFileSync(join(root, '.node-version'), '999\n');
    const refused = spawnSync(process.execPath, [join(root, 'scripts', 'require-node.cjs')], { encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`Procure Desk needs Node.js 999 or newer, but this is Node.js ${process.versions.node} (${process.execPath})`);
    writeFileSync(join(root, '.node-version'), `${required}\n`);
    const passed = spawnSync(process.execPath, [join(root, 'scripts', 'require-node.cjs')], { encoding: 'utf8' });
    expect(passed.status).toBe(0);
    expect(passed.stderr).toBe('');
  });

  it('names Homebrew on macOS and winget on Windows (platform set by a preload, the copy asking for Node 999)', () => {
    const root = mkdtempSync(join(tmpdir(), 'procure-node-guard-'));
    made.push(root);
    mkdirSync(join(root, 'scripts'));
    copyFileSync('scripts/require-node.cjs', join(root, 'scripts', 'require-node.cjs'));
    writeFileSync(join(root, '.node-version'), '999\n');
    const on = (platform: string): string => {
      writeFileSync(join(root, 'platform.cjs'), `Object.defineProperty(process, 'platform', { value: ${JSON.stringify(platform)} });\n`);
      return spawnSync(process.execPath, ['--require', join(root, 'platform.cjs'), join(root, 'scripts', 'require-node.cjs')], { encoding: 'utf8' }).stderr;
    };
    expect(on('darwin')).toContain('install Node.js 999 LTS (https://nodejs.org/, or `brew install node@999`) and run the command again.');
    expect(on('darwin')).toContain('请安装 Node.js 999 LTS（https://nodejs.org/，或 `brew install node@999`）');
    expect(on('win32')).toContain('install Node.js 999 LTS (https://nodejs.org/, or `winget install OpenJS.NodeJS.LTS`) and run the command again.');
    expect(on('linux')).toContain('(https://nodejs.org/, or `nvm install 999`)');
  });

  it.runIf(OLD_NODE !== undefined)('the old Node itself: the guard, `npm run web -- --demo` and `npm run cli` stop at once with the sentence', () => {
    const guard = spawnSync(OLD_NODE ?? '', ['scripts/require-node.cjs'], { encoding: 'utf8' });
    expect(guard.status).toBe(1);
    expectTheSentence(guard.stderr, oldNodeVersion);
    for (const args of [['run', '--silent', 'web', '--', '--demo'], ['run', '--silent', 'cli', '--', 'orders', '--json']]) {
      const startedAt = Date.now();
      const run = spawnSync('npm', args, { encoding: 'utf8', env: { ...process.env, PATH: OLD_PATH }, timeout: 60_000 });
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(1);
      expectTheSentence(run.stderr, oldNodeVersion);
      expect(run.stderr).not.toContain('restarting');
      expect(run.stdout).toBe('');
      // At once: no host, no core process, no loop (npm's own start-up is most of it).
      expect(Date.now() - startedAt).toBeLessThan(30_000);
    }
  }, 120_000);

  it.runIf(OLD_NODE !== undefined)('the old Node: `npm ci` stops before anything is downloaded (EBADENGINE), node_modules untouched', () => {
    const root = mkdtempSync(join(tmpdir(), 'procure-old-npm-ci-'));
    made.push(root);
    for (const file of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(file, join(root, file));
    mkdirSync(join(root, 'node_modules', 'kept'), { recursive: true });
    const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, encoding: 'utf8', env: { ...process.env, PATH: OLD_PATH }, timeout: 90_000 });
    expect(ci.status, ci.stderr).toBe(1);
    expect(ci.stderr).toContain('EBADENGINE');
    expect(ci.stderr).toContain(`Required: {"node":">=${required}"}`);
    expect(ci.stderr).toContain(`"node":"v${oldNodeVersion}"`);
    expect(existsSync(join(root, 'node_modules', 'kept'))).toBe(true);
  }, 120_000);
});
