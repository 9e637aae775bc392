// The three command lines (the CLI, the web host, the sandbox) are parsed by node:util's parseArgs and
// keep their words: unknown options, missing values and bad numbers are refused as before, and
// --help asks for the usage instead of starting anything.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { allowOnly, optionOf, parseCliArgs, UsageError } from '../../src/cli/cli-args';
import { DEFAULT_OPTIONS, parseSandboxArgs, UsageError as SandboxUsageError } from '../../src/sandbox/sandbox-options';
import { parseWebHostArgs, UsageError as WebUsageError } from '../../src/web-host/web-host-args';

describe('the CLI arguments', () => {
  it('reads the data folder, words, repeated options and flags, in either value form', () => {
    const args = parseCliArgs(['--data', '/d', 'order', 'create', '--product=1001', '--units', '2', '--entry', 'a=b', '--entry', 'c=-d', '--json']);
    expect(args).toMatchObject({ dataDir: '/d', words: ['order', 'create'], help: false });
    expect(Object.fromEntries(args.options)).toEqual({ product: ['1001'], units: ['2'], entry: ['a=b', 'c=-d'] });
    expect([...args.flags]).toEqual(['json']);
    expect(() => allowOnly(args, ['product', 'units'])).toThrow('unknown option --entry');
    expect(() => optionOf(args, 'entry')).toThrow('--entry may be given once');
  });

  it('refuses what it does not know, in its own words', () => {
    expect(() => parseCliArgs(['--data', '/d', 'sync', '--colour', 'red'])).toThrow(new UsageError('unknown option --colour'));
    expect(() => parseCliArgs(['--data', '/d', 'order', 'create', '--product', '--units', '1'])).toThrow(new UsageError('--product needs a value'));
    expect(() => parseCliArgs(['--data', '/d', 'order', 'create', '--product'])).toThrow(new UsageError('--product needs a value'));
    expect(() => parseCliArgs(['--data', '/d', 'orders', '--json=yes'])).toThrow(new UsageError('--json takes no value'));
    expect(() => parseCliArgs(['sync'])).toThrow(new UsageError('--data DIR is required (the folder holding the database and the secret file)'));
    expect(() => parseCliArgs(['--data', '/a', '--data', '/b', 'sync'])).toThrow(/--data DIR is required/);
  });

  it('answers --help (or -h) without needing a data folder', () => {
    expect(parseCliArgs(['--help']).help).toBe(true);
    expect(parseCliArgs(['order', '-h']).help).toBe(true);
  });
});

describe('the web host arguments', () => {
  it('reads every option', () => {
    expect(parseWebHostArgs(['--port', '8080', '--data', '/d', '--exports=/e', '--demo', '--renderer', 'r', '--exit-on-stdin-close'])).toEqual({
      port: 8080,
      dataDir: '/d',
      exportsDir: '/e',
      demo: true,
      rendererDir: 'r',
      exitOnStdinClose: true,
    });
    expect(parseWebHostArgs([])).toEqual({ port: 0, dataDir: null, exportsDir: null, demo: false, rendererDir: null, exitOnStdinClose: false });
    expect(parseWebHostArgs(['--help']).help).toBe(true);
  });

  it('refuses bad usage in its own words', () => {
    expect(() => parseWebHostArgs(['--bogus'])).toThrow(new WebUsageError('unknown option --bogus'));
    expect(() => parseWebHostArgs(['demo'])).toThrow(new WebUsageError('unknown option demo'));
    expect(() => parseWebHostArgs(['--port', '70000'])).toThrow(new WebUsageError('--port takes a whole number from 0 to 65535'));
    expect(() => parseWebHostArgs(['--data', '--demo'])).toThrow(new WebUsageError('--data needs a value'));
    expect(() => parseWebHostArgs(['--data'])).toThrow(new WebUsageError('--data needs a value'));
  });
});

describe('the sandbox arguments', () => {
  it('reads every option over the defaults', () => {
    const options = parseSandboxArgs([
      '--port', '8443', '--control-port', '9000', '--products', '1000', '--seed', '7', '--time-scale', '60', '--domain', 'Shop.Example',
      '--callback-policy', 'strict', '--http', '--balance', '12.5', '--subscription-ttl', '3600', '--auto-advance', 'off', '--ca-dir', '/ca', '--exit-on-stdin-close',
    ]);
    expect(options).toEqual({
      ...DEFAULT_OPTIONS,
      port: 8443,
      controlPort: 9000,
      products: 1000,
      seed: 7,
      timeScale: 60,
      domain: 'shop.example',
      callbackPolicy: 'strict',
      http: true,
      balanceFen: 1250,
      subscriptionTtlSeconds: 3600,
      autoAdvance: false,
      caDir: '/ca',
      exitOnStdinClose: true,
    });
    expect(parseSandboxArgs([])).toEqual(DEFAULT_OPTIONS);
    expect(parseSandboxArgs(['-h']).help).toBe(true);
  });

  it('refuses bad usage in its own words', () => {
    expect(() => parseSandboxArgs(['--bogus'])).toThrow(new SandboxUsageError('unknown option --bogus'));
    expect(() => parseSandboxArgs(['--port'])).toThrow(new SandboxUsageError('--port takes a whole number from 0 to 65535'));
    expect(() => parseSandboxArgs(['--products', '0'])).toThrow(new SandboxUsageError('--products takes a whole number from 1 to 1000000'));
    expect(() => parseSandboxArgs(['--time-scale', '-1'])).toThrow(new SandboxUsageError('--time-scale takes a number above 0'));
    expect(() => parseSandboxArgs(['--balance', '1.234'])).toThrow(new SandboxUsageError('--balance takes yuan with at most two decimals'));
    expect(() => parseSandboxArgs(['--auto-advance', 'maybe'])).toThrow(new SandboxUsageError('--auto-advance takes on or off'));
    expect(() => parseSandboxArgs(['--callback-policy', 'open'])).toThrow(new SandboxUsageError('--callback-policy takes loopback or strict'));
    expect(() => parseSandboxArgs(['--http=yes'])).toThrow(new SandboxUsageError('--http takes no value'));
  });
});

describe('--help on each command line', () => {
  it.each([
    ['the CLI', 'src/cli/cli.ts', 'usage: npm run cli -- --data DIR <command>'],
    ['the web host', 'src/web-host/cli.ts', 'usage: npm run web -- [--port N]'],
    ['the sandbox', 'src/sandbox/cli.ts', 'usage: npm run sandbox -- [options]'],
  ])('%s prints its usage on stdout and exits 0, starting nothing', (_name, entry, usage) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', entry, '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout.startsWith(usage)).toBe(true);
  });
});
