// Spawning npm on each OS (platform injected): `npm` itself on POSIX; on Windows npm's CLI script under
// this Node, the one npm_execpath names or else the one installed beside node.exe, and a clear error
// when neither is there.
import { describe, expect, it } from 'vitest';
import { npmCommand } from './npm-command';

const windows = (env: Record<string, string>, present: readonly string[]) => ({ platform: 'win32' as const, env, execPath: 'C:\\Program Files\\nodejs\\node.exe', exists: (path: string) => present.includes(path) });

describe('npm as a command to spawn', () => {
  it('is npm on Linux and macOS', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      expect(npmCommand(['run', 'sandbox'], { platform, env: {}, execPath: '/usr/bin/node', exists: () => false })).toEqual({ command: 'npm', args: ['run', 'sandbox'] });
    }
  });

  it('on Windows runs the npm-cli.js that started the tests, under this Node', () => {
    const cli = 'C:\\Users\\kim\\AppData\\Roaming\\nvm\\v24\\node_modules\\npm\\bin\\npm-cli.js';
    expect(npmCommand(['run', '--silent', 'sandbox'], windows({ npm_execpath: cli }, [cli]))).toEqual({ command: 'C:\\Program Files\\nodejs\\node.exe', args: [cli, 'run', '--silent', 'sandbox'] });
  });

  it('on Windows otherwise (or under pnpm) takes the npm installed beside node.exe', () => {
    const beside = 'C:\\Program Files\\nodejs\\node_modules\\npm\\bin\\npm-cli.js';
    expect(npmCommand(['config', 'get', 'loglevel'], windows({}, [beside])).args).toEqual([beside, 'config', 'get', 'loglevel']);
    expect(npmCommand(['ci'], windows({ npm_execpath: 'C:\\pnpm\\pnpm.cjs' }, [beside])).args[0]).toBe(beside);
    expect(() => npmCommand(['ci'], windows({}, []))).toThrow("npm's CLI is not at C:\\Program Files\\nodejs\\node_modules\\npm\\bin\\npm-cli.js");
  });
});
