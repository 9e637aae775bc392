// The external-tool lookup per platform (injected): PATH first with the platform's separator and, on
// Windows, its executable extensions; then the installers' own folders; Homebrew's `7zz` counts as 7-Zip.
// Real temp files for the PATH walk on this machine.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findTool, HERE_TOOLS, libreOfficeProfile, type ToolLookup } from './external-tools';

const dir = mkdtempSync(join(tmpdir(), 'tool-lookup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lookup = (platform: NodeJS.Platform, env: Record<string, string>, present: readonly string[]): ToolLookup => ({ platform, env, runnable: (path) => present.includes(path) });

describe('the external-tool lookup', () => {
  it('walks PATH on this machine, in order, skipping files that are not there or cannot be run', () => {
    const [first, second] = [join(dir, 'a'), join(dir, 'b')];
    for (const folder of [first, second]) mkdirSync(folder);
    writeFileSync(join(first, 'msoffcrypto-tool'), 'not runnable');
    if (process.platform !== 'win32') chmodSync(join(first, 'msoffcrypto-tool'), 0o644);
    const tool = join(second, process.platform === 'win32' ? 'msoffcrypto-tool.exe' : 'msoffcrypto-tool');
    writeFileSync(tool, '#!/bin/sh\n');
    chmodSync(tool, 0o755);
    const found = findTool('msoffcrypto-tool', { ...HERE_TOOLS, env: { PATH: [first, '', second].join(delimiter), PATHEXT: '.EXE' } });
    // Windows cannot tell a file that may not be run: there the first one counts.
    expect(found).toBe(process.platform === 'win32' ? join(first, 'msoffcrypto-tool') : tool);
  });

  it('on Windows splits PATH at ";" and tries PATHEXT, then Program Files (7-Zip and LibreOffice do not extend PATH)', () => {
    const env = { Path: 'C:\\Python312\\Scripts;C:\\Tools', PATHEXT: '.COM;.EXE;.CMD', ProgramFiles: 'C:\\Program Files' };
    expect(findTool('msoffcrypto-tool', lookup('win32', env, ['C:\\Python312\\Scripts\\msoffcrypto-tool.exe']))).toBe('C:\\Python312\\Scripts\\msoffcrypto-tool.exe');
    expect(findTool('7z', lookup('win32', env, ['C:\\Tools\\7z.cmd', 'C:\\Program Files\\7-Zip\\7z.exe']))).toBe('C:\\Tools\\7z.cmd');
    expect(findTool('7z', lookup('win32', env, ['C:\\Program Files\\7-Zip\\7z.exe']))).toBe('C:\\Program Files\\7-Zip\\7z.exe');
    expect(findTool('soffice', lookup('win32', env, ['C:\\Program Files\\LibreOffice\\program\\soffice.exe']))).toBe('C:\\Program Files\\LibreOffice\\program\\soffice.exe');
    expect(findTool('soffice', lookup('win32', env, []))).toBeUndefined();
  });

  it('on macOS finds Homebrew\'s 7zz and LibreOffice inside its app bundle', () => {
    const env = { PATH: '/opt/homebrew/bin:/usr/bin' };
    expect(findTool('7z', lookup('darwin', env, ['/opt/homebrew/bin/7zz']))).toBe('/opt/homebrew/bin/7zz');
    expect(findTool('7z', lookup('darwin', { PATH: '/usr/bin' }, ['/usr/local/bin/7zz']))).toBe('/usr/local/bin/7zz');
    expect(findTool('soffice', lookup('darwin', env, ['/Applications/LibreOffice.app/Contents/MacOS/soffice']))).toBe('/Applications/LibreOffice.app/Contents/MacOS/soffice');
  });

  it('on Linux prefers PATH, then /usr/bin', () => {
    expect(findTool('python3', lookup('linux', { PATH: '/opt/py/bin:/usr/bin' }, ['/usr/bin/python3', '/opt/py/bin/python3']))).toBe('/opt/py/bin/python3');
    expect(findTool('soffice', lookup('linux', { PATH: '' }, ['/usr/bin/soffice']))).toBe('/usr/bin/soffice');
  });

  it('gives LibreOffice its profile as a file URL of the folder', () => {
    expect(libreOfficeProfile(dir)).toMatch(/^-env:UserInstallation=file:\/\/\/.*tool-lookup-.*\/profile$/);
  });
});
