// The password-protected XLSX against independent readers: msoffcrypto-tool (the CLI as a user runs
// it, and its Python API with the password verifier and the HMAC integrity check on), a known-answer
// vector for the key derivation, and the compound file's streams as MS-OFFCRYPTO lays them out.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDecipheriv } from 'node:crypto';
import CFB from 'cfb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_KEYS, iteratedPasswordHash, keyFromIteratedHash, SPIN_COUNT } from '../../../src/core/export/office-agile-encryption';
import {
  dataSpaceDefinitionStream,
  dataSpaceMapStream,
  dataSpaceVersionStream,
  encryptOfficePackage,
  primaryTransformStream,
} from '../../../src/core/export/office-encrypted-container';
import { xlsxBytes } from '../../../src/core/export/xlsx-writer';
import { containsText, MSOFFCRYPTO, readXlsx, run, verifyOfficeIntegrity } from './file-readers';

const PASSWORD = 'Kx7-密码-Tiger!92';
let dir: string;
let plain: Uint8Array;
let encryptedFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'procure-agile-'));
  plain = await xlsxBytes({
    sheetName: '卡密',
    headers: ['商品', '卡号', '卡密'],
    rows: Array.from({ length: 900 }, (_, i) => [`王者荣耀点券 ${i}`, `62220212345${String(i).padStart(8, '0')}`, `PW-${i}-CANARYSECRET`]),
  });
  // Bigger than one 4096-byte segment, so segment IVs and the padded last segment are exercised.
  expect(plain.length).toBeGreaterThan(3 * 4096);
  encryptedFile = join(dir, 'cards.xlsx');
  writeFileSync(encryptedFile, await encryptOfficePackage(plain, PASSWORD));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ECMA-376 agile encryption', () => {
  it('derives keys exactly as MS-OFFCRYPTO 2.3.4.11 (msoffcrypto-tool\'s published vector)', async () => {
    // From msoffcrypto-tool's ECMA376Agile.makekey_from_password doctest.
    const salt = Buffer.from('4c725d45dc610f939412a04da7910466', 'hex');
    const encryptedKeyValue = Buffer.from('a16cd5165a7ab9d271113ed386a78cf49692e8e527b0c5fc0055ed080b7cb94b', 'hex');
    const expected = Buffer.from('40206609d9faadf24b076aebf2c435b74292c8b8a7aa81bc679be89711b02ac2', 'hex');
    const key = keyFromIteratedHash(await iteratedPasswordHash('Password1234_', salt, SPIN_COUNT), BLOCK_KEYS.encryptedKeyValue);
    const decipher = createDecipheriv('aes-256-cbc', key, salt);
    decipher.setAutoPadding(false);
    expect(Buffer.concat([decipher.update(encryptedKeyValue), decipher.final()])).toEqual(expected);
  });

  it('is recognised as encrypted (agile) by msoffcrypto-tool --test, where the plain package is not', () => {
    const result = run(MSOFFCRYPTO, ['--test', '-v', encryptedFile]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('OOXMLFile.type: agile');
    expect(result.stderr).toContain(`${encryptedFile}: encrypted`);
    const plainFile = join(dir, 'plain.xlsx');
    writeFileSync(plainFile, plain);
    const control = run(MSOFFCRYPTO, ['--test', plainFile]);
    expect(control.status).toBe(1);
    expect(control.stderr).toContain('not encrypted');
  });

  it('decrypts with the password to the very same package, Chinese text included', () => {
    const out = join(dir, 'decrypted.xlsx');
    const result = run(MSOFFCRYPTO, ['-p', PASSWORD, encryptedFile, out]);
    expect(result.status, result.stderr).toBe(0);
    const decrypted = readFileSync(out);
    expect(Buffer.compare(decrypted, Buffer.from(plain))).toBe(0);
    const book = readXlsx(decrypted);
    expect(book.rows[1]?.map((c) => c?.text)).toEqual(['王者荣耀点券 0', '6222021234500000000', 'PW-0-CANARYSECRET']);
  });

  it('passes the password verifier and the HMAC data-integrity check', () => {
    const result = verifyOfficeIntegrity(encryptedFile, PASSWORD);
    expect(result.status, result.stderr).toBe(0);
    expect(Number(result.stdout.toString().trim())).toBe(plain.length);
  });

  it('does not open with another password', () => {
    const cli = run(MSOFFCRYPTO, ['-p', 'Kx7-密码-Tiger!93', encryptedFile, join(dir, 'wrong.xlsx')]);
    expect(cli.status).not.toBe(0);
    expect(cli.stderr).toMatch(/could not be decrypted|InvalidKey/);
    const api = verifyOfficeIntegrity(encryptedFile, 'another-Password-1');
    expect(api.status).not.toBe(0);
  });

  it('holds no plain text of the package (no ZIP header, no code, no password)', () => {
    const bytes = readFileSync(encryptedFile);
    expect(bytes.subarray(0, 8).toString('hex')).toBe('d0cf11e0a1b11ae1');
    expect(bytes.includes(Buffer.from('PK\u0003\u0004', 'latin1'))).toBe(false);
    expect(containsText(bytes, 'CANARYSECRET')).toBe(false);
    expect(containsText(bytes, PASSWORD)).toBe(false);
  });

  it('lays out the compound file as MS-OFFCRYPTO 2.3.4.1 describes, with nothing else in it', () => {
    const container = CFB.read(readFileSync(encryptedFile), { type: 'buffer' });
    const streams = container.FullPaths.filter((_path, i) => container.FileIndex[i]?.type === 2).map((p) => p.replace(/^Root Entry\//, ''));
    expect(streams.sort()).toEqual(
      [
        '\u0006DataSpaces/DataSpaceInfo/StrongEncryptionDataSpace',
        '\u0006DataSpaces/DataSpaceMap',
        '\u0006DataSpaces/TransformInfo/StrongEncryptionTransform/\u0006Primary',
        '\u0006DataSpaces/Version',
        'EncryptedPackage',
        'EncryptionInfo',
      ].sort(),
    );
    const info = CFB.find(container, '/EncryptionInfo');
    const infoBytes = Buffer.from(info?.content ?? []);
    // Version 4.4 = agile, flags 0x40.
    expect(infoBytes.subarray(0, 8).toString('hex')).toBe('0400040040000000');
    const xml = infoBytes.subarray(8).toString('utf8');
    expect(xml).toContain('<keyData saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512"');
    expect(xml).toContain('spinCount="100000"');
    expect(xml).toMatch(/<dataIntegrity encryptedHmacKey="[A-Za-z0-9+/=]{88}" encryptedHmacValue="[A-Za-z0-9+/=]{88}"\/>/);
    const pkg = Buffer.from(CFB.find(container, '/EncryptedPackage')?.content ?? []);
    expect(pkg.readBigUInt64LE(0)).toBe(BigInt(plain.length));
  });

  it('writes the data-space streams byte for byte as Office does (MS-OFFCRYPTO 2.1.5 to 2.1.9)', () => {
    const utf16 = (text: string): string => Buffer.from(text, 'utf16le').toString('hex');
    const lp = (text: string): string => {
      const bytes = Buffer.from(text, 'utf16le');
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bytes.length);
      return length.toString('hex') + utf16(text) + '00'.repeat((4 - (bytes.length % 4)) % 4);
    };
    const v1 = '01000000';
    expect(dataSpaceVersionStream().toString('hex')).toBe(lp('Microsoft.Container.DataSpaces') + v1 + v1 + v1);
    expect(dataSpaceMapStream().toString('hex')).toBe('08000000' + '01000000' + '68000000' + '01000000' + '00000000' + lp('EncryptedPackage') + lp('StrongEncryptionDataSpace'));
    expect(dataSpaceDefinitionStream().toString('hex')).toBe('08000000' + '01000000' + lp('StrongEncryptionTransform'));
    expect(primaryTransformStream().toString('hex')).toBe(
      '58000000' + '01000000' + lp('{FF9A3F03-56EF-4613-BDD5-5A41C1D07246}') + lp('Microsoft.Container.EncryptionTransform') + v1 + v1 + v1 + '00000000' + '00000000' + '00000000' + '04000000',
    );
  });

  it('uses fresh salts and keys every time: the same package encrypts differently', async () => {
    const again = await encryptOfficePackage(plain, PASSWORD);
    expect(Buffer.compare(again, readFileSync(encryptedFile))).not.toBe(0);
  });
});
