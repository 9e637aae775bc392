// `--help` on every command of the table (`npm run cli -- vault reveal --help` prints that command's
// usage, naming each option it takes, and exits 0 without a data folder), the group and general
// usage, options a command does not take refused before anything is opened, and docs/cli.md's command
// line section naming every command, its options and the exit codes.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS, synopsisOf } from '../../src/cli/command-table';
import { EXIT } from '../../src/cli/exit-codes';
import { CLI_ENTRY } from './cli-kit';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI without --data (help needs none), stdin closed. */
function cli(args: readonly string[]): Promise<Ran> {
  const child = spawn(process.execPath, [...CLI_ENTRY, ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** At most `limit` children at a time: the machine is shared. */
async function each<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

const root = mkdtempSync(join(tmpdir(), 'procure-cli-help-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('cli --help', () => {
  it('every command of the table prints its own usage with each of its options and exits 0', async () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(17);
    const results = await each(COMMANDS, 3, (command) => cli([...command.words, '--help']));
    COMMANDS.forEach((command, i) => {
      const result = results[i];
      const name = command.words.join(' ');
      expect(result?.code, `${name}: ${result?.stderr ?? ''}`).toBe(0);
      expect(result?.stderr).toBe('');
      expect(result?.stdout.startsWith(`usage: npm run cli -- --data DIR ${name}`), name).toBe(true);
      for (const option of command.options) expect(result?.stdout, `${name} --${option}`).toContain(`--${option}`);
      expect(result?.stdout).toContain('exit codes: 0 ok');
      // Its own usage, not the whole list.
      for (const other of COMMANDS.filter((c) => c !== command && !c.words.join(' ').startsWith(name))) {
        expect(result?.stdout, `${name} shows ${other.words.join(' ')}`).not.toContain(`DIR ${synopsisOf(other)}`);
      }
    });
  }, 120_000);

  it('-h after a command\'s words and a reference works too; a group lists its commands; --help alone lists all', async () => {
    const short = await cli(['vault', 'reveal', 'o_someRef', '-h']);
    expect(short.code).toBe(0);
    expect(short.stdout).toContain('vault reveal REF [--card N] --yes');
    const group = await cli(['aftersales', '--help']);
    expect(group.code).toBe(0);
    expect(group.stdout.split('\n').filter((line) => line.startsWith('  aftersales '))).toHaveLength(4);
    const all = await cli(['--help']);
    expect(all.code).toBe(0);
    for (const command of COMMANDS) expect(all.stdout).toContain(`  ${synopsisOf(command)}`);
  }, 60_000);

  it('an unknown command exits 2, with or without --help', async () => {
    for (const args of [['frobnicate', '--help'], ['vault', 'frobnicate', '--help']]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('unknown command');
    }
    const vaultAlone = await cli(['--data', join(root, 'never'), 'vault']);
    expect(vaultAlone.code).toBe(2);
  }, 60_000);

  it('an option a command does not take exits 2 before the data folder is touched', async () => {
    const cases = [
      ['orders', '--yes'],
      ['search', 'x', '--templates'],
      ['vault', 'list', '--out', 'f.xlsx'],
      ['vault', 'reveal', 'o_x', '--include-refunded'],
      ['aftersales', 'list', '--text', 'hi'],
      ['sync', '--product', '1'],
    ];
    const results = await each(cases, 3, (args) => cli(['--data', join(root, 'untouched'), ...args]));
    results.forEach((result, i) => {
      expect(result.code, cases[i]?.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/takes no --/);
      expect(result.stdout).toBe('');
    });
    expect(existsSync(join(root, 'untouched'))).toBe(false);
  }, 60_000);
});

describe('docs/cli.md: the command line', () => {
  const readme = readFileSync('docs/cli.md', 'utf8');
  const start = readme.indexOf('## The command line');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);

  it('names every command of the table with each of its options', () => {
    for (const command of COMMANDS) {
      const name = command.words.join(' ');
      expect(section, name).toContain(name);
      for (const option of command.options) expect(section, `${name} --${option}`).toContain(`--${option}`);
    }
  });

  it('documents every exit code in its table', () => {
    expect(start).toBeGreaterThan(-1);
    for (const code of Object.values(EXIT)) expect(section, `exit ${code}`).toMatch(new RegExp(`^\\| ${code} \\| \\S`, 'm'));
  });
});
