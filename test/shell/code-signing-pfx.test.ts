// The test code-signing PFX read by electron-builder's own PKCS#12 reader (what a Windows build runs on
// WIN_CSC_LINK): the publisher name comes out with the right password, and a wrong one is refused by the MAC.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCertInfo } from 'app-builder-lib/out/codeSign/certInfo';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCodeSigningPfx } from './code-signing-pfx';

const dir = mkdtempSync(join(tmpdir(), 'pd-pfx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the code-signing PFX', () => {
  it('names its publisher under its password and refuses another password', async () => {
    const file = await writeCodeSigningPfx(dir, 'Procure Desk Ltd', 'pfx-pass');
    await expect(readCertInfo(file, 'pfx-pass')).resolves.toEqual({ commonName: 'Procure Desk Ltd', bloodyMicrosoftSubjectDn: 'CN=Procure Desk Ltd,O=Procure Desk Ltd' });
    await expect(readCertInfo(file, 'other')).rejects.toThrow(/password incorrect/);
  });
});
