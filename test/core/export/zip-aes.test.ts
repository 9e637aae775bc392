// The AES ZIP against 7-Zip as a user runs it: the archive tests with the password, lists its entry
// as AES-256, extracts the very bytes that went in (the CSV with its BOM), and refuses another password.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aesZipBytes } from '../../../src/core/export/zip-aes';
import { containsText, run, SEVEN_ZIP } from './file-readers';

const PASSWORD = 'Zip-密码-7f3!q';
const content = new TextEncoder().encode('\ufeff商品,卡号,卡密\r\n王者荣耀,6222021234567890123,SECRETCANARY-1\r\n');
let dir: string;
let file: string;
let bytes: Uint8Array;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'procure-zip-'));
  file = join(dir, 'cards.zip');
  bytes = await aesZipBytes('cards.csv', content, PASSWORD, new Date('2025-05-01T12:00:00Z'));
  writeFileSync(file, bytes);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('AES-256 ZIP', () => {
  it('tests good with the password', () => {
    const result = run(SEVEN_ZIP, ['t', `-p${PASSWORD}`, file]);
    expect(result.status, result.stdout.toString()).toBe(0);
    expect(result.stdout.toString()).toContain('Everything is Ok');
  });

  it('lists its one entry as AES-256, encrypted, without a CRC of the plain text (AE-2)', () => {
    const listing = run(SEVEN_ZIP, ['l', '-slt', `-p${PASSWORD}`, file]).stdout.toString();
    expect(listing).toContain('Path = cards.csv');
    expect(listing).toMatch(/Method = AES-256 Deflate/);
    expect(listing).toContain('Encrypted = +');
    expect(listing).toMatch(/CRC = \n/);
  });

  it('extracts exactly the bytes that went in', () => {
    const out = run(SEVEN_ZIP, ['x', `-p${PASSWORD}`, '-so', file, 'cards.csv']);
    expect(out.status).toBe(0);
    expect(Buffer.compare(out.stdout, Buffer.from(content))).toBe(0);
  });

  it('refuses another password and shows nothing of the content in the archive itself', () => {
    const wrong = run(SEVEN_ZIP, ['t', '-pZip-密码-7f3!Q', file]);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout.toString() + wrong.stderr).toMatch(/Wrong password/);
    expect(containsText(bytes, 'SECRETCANARY')).toBe(false);
    expect(containsText(bytes, '6222021234567890123')).toBe(false);
    expect(containsText(bytes, PASSWORD)).toBe(false);
  });
});
