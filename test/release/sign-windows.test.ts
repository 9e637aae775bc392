// The Windows signing hook (scripts/sign-windows.cjs), as electron-builder loads and calls it: signtool
// with a certificate whose key stays on a hardware token or in a key service, never a secret on its
// command line, and no signature at all refused rather than shipped. signtool itself cannot run here:
// a stand-in named by SIGNTOOL_PATH (electron-builder's own override) records what it was given.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getConfig } from 'app-builder-lib/out/util/config/config';
import { resolveFunction } from 'app-builder-lib/out/util/resolve';
import { afterEach, describe, expect, it } from 'vitest';
import { sign, signtoolArguments, type SigningCertificate } from '../../scripts/sign-windows.cjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const THUMBPRINT = '0123456789abcdef0123456789abcdef01234567';
const tail = ['/fd', 'sha256', '/tr', 'http://timestamp.digicert.com', '/td', 'sha256', '/d', 'Procure Desk', 'C:\\build\\Procure Desk.exe'];
const args = (env: Record<string, string | undefined>, cscInfo: SigningCertificate | null = null): string[] | Error => signtoolArguments('C:\\build\\Procure Desk.exe', env, cscInfo, 'Procure Desk');

describe('signtool arguments', () => {
  it('a certificate in the Windows store by thumbprint, its key on a token or KSP (no .pfx)', () => {
    expect(args({ WIN_SIGN_CERT_SHA1: THUMBPRINT })).toEqual(['sign', '/sha1', THUMBPRINT.toUpperCase(), '/s', 'My', ...tail]);
    expect(args({ WIN_SIGN_CERT_SHA1: THUMBPRINT, WIN_SIGN_MACHINE_STORE: 'true', WIN_SIGN_TIMESTAMP_URL: 'http://ts.example' })).toEqual(['sign', '/sha1', THUMBPRINT.toUpperCase(), '/s', 'My', '/sm', '/fd', 'sha256', '/tr', 'http://ts.example', '/td', 'sha256', '/d', 'Procure Desk', 'C:\\build\\Procure Desk.exe']);
    // The certificate electron-builder found in the store itself (win.signtoolOptions.certificateSha1).
    expect(args({}, { thumbprint: THUMBPRINT, store: 'My', isLocalMachineStore: true })).toEqual(['sign', '/sha1', THUMBPRINT.toUpperCase(), '/s', 'My', '/sm', ...tail]);
  });

  it('a public certificate file with the key in a CSP/KSP container (a cloud HSM or smart card provider)', () => {
    const env = { WIN_SIGN_CERT_FILE: 'C:\\certs\\code.cer', WIN_SIGN_CSP: 'Google Cloud KMS Provider', WIN_SIGN_KEY_CONTAINER: 'projects/p/locations/l/keyRings/r/cryptoKeys/k/cryptoKeyVersions/1' };
    expect(args(env)).toEqual(['sign', '/f', 'C:\\certs\\code.cer', '/csp', 'Google Cloud KMS Provider', '/kc', env.WIN_SIGN_KEY_CONTAINER, ...tail]);
    expect(args({ ...env, WIN_SIGN_CSP: '' })).toEqual(new Error('WIN_SIGN_KEY_CONTAINER needs WIN_SIGN_CERT_FILE (the public certificate) and WIN_SIGN_CSP (the key provider)'));
  });

  it('a .pfx from WIN_CSC_LINK still signs (a test or internal certificate)', () => {
    expect(args({}, { file: '/tmp/signing.pfx', password: 'pfx-pass' })).toEqual(['sign', '/f', '/tmp/signing.pfx', '/p', 'pfx-pass', ...tail]);
  });

  it('refuses without an identity, or with something that is not a thumbprint', () => {
    expect(args({})).toBeInstanceOf(Error);
    expect(String(args({ WIN_SIGN_CERT_SHA1: '   ' }))).toContain('no Windows signing identity');
    expect(String(args({ WIN_SIGN_CERT_SHA1: 'CN=Procure Desk Ltd' }))).toContain('40 hex digits');
  });
});

describe('the hook electron-builder calls', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ['SIGNTOOL_PATH', 'WIN_SIGN_CERT_SHA1']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('is the one electron-builder.yml names, found the way electron-builder finds hooks', async () => {
    const config = await getConfig(root, null, null);
    const hook = await resolveFunction<typeof sign>(undefined, String(config.win?.signtoolOptions?.sign), 'sign', root);
    // Loaded by Node itself (not this test's module loader): the same function, by its behaviour.
    if (typeof hook !== 'function') throw new Error('electron-builder found no function');
    expect(hook.name).toBe('sign');
    await expect(hook({ path: 'C:\\build\\app.exe', cscInfo: null })).rejects.toThrow(/no Windows signing identity/);
  });

  it('throws before running anything when no identity is set, so nothing ships unsigned', async () => {
    await expect(sign({ path: 'C:\\build\\app.exe', name: 'Procure Desk', cscInfo: null })).rejects.toThrow(/no Windows signing identity/);
  });

  it.skipIf(process.platform === 'win32')('runs signtool (SIGNTOOL_PATH) with the arguments, and fails when signtool fails (the stand-in is a POSIX shell script)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-signtool-'));
    try {
      const record = join(dir, 'args.txt');
      const tool = join(dir, 'signtool');
      writeFileSync(tool, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\n[ "$2" = "/sha1" ]\n`);
      chmodSync(tool, 0o755);
      process.env['SIGNTOOL_PATH'] = tool;
      process.env['WIN_SIGN_CERT_SHA1'] = THUMBPRINT;
      await sign({ path: join(dir, 'app.exe'), name: 'Procure Desk', cscInfo: null });
      expect(readFileSync(record, 'utf8').trim().split('\n')).toEqual(['sign', '/sha1', THUMBPRINT.toUpperCase(), '/s', 'My', '/fd', 'sha256', '/tr', 'http://timestamp.digicert.com', '/td', 'sha256', '/d', 'Procure Desk', join(dir, 'app.exe')]);
      delete process.env['WIN_SIGN_CERT_SHA1'];
      await expect(sign({ path: join(dir, 'app.exe'), name: 'Procure Desk', cscInfo: { file: join(dir, 'x.pfx') } })).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
