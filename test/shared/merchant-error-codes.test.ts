// The merchant's error codes by name: one table, each code once, and no bare code number anywhere
// else in the app's code (the sandbox, an independent merchant, keeps its own table on purpose).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MERCHANT_ERROR, merchantErrorName, type MerchantErrorName } from '../../src/shared/merchant-error-codes';
import { COOLDOWNS, QUOTA_CODE } from '../../src/shared/merchant-quotas';

const SRC = join(__dirname, '../../src');
const HOME = 'shared/merchant-error-codes.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The code of a file without its comments and string literals (where a code may be named in words). */
function codeOnly(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
}

describe('merchant error codes', () => {
  it('names every code once, and finds the name of a code', () => {
    const codes = Object.values(MERCHANT_ERROR);
    expect(new Set(codes).size).toBe(codes.length);
    for (const name of Object.keys(MERCHANT_ERROR) as MerchantErrorName[]) expect(merchantErrorName(MERCHANT_ERROR[name])).toBe(name);
    expect(merchantErrorName(409101)).toBe('PURCHASE_SCHEMA_CHANGED');
    expect(merchantErrorName(401001)).toBe('INVALID_CREDENTIAL');
    expect(merchantErrorName(499999)).toBe('UNKNOWN_ERROR');
  });

  it('gives the quota table its codes by name', () => {
    expect(QUOTA_CODE).toBe(MERCHANT_ERROR.RATE_LIMITED);
    expect([COOLDOWNS.verification.code, COOLDOWNS.cancel.code, COOLDOWNS.refund.code]).toEqual([
      MERCHANT_ERROR.OTP_ATTEMPTS_LIMITED,
      MERCHANT_ERROR.CANCELLATION_ATTEMPTS_LIMITED,
      MERCHANT_ERROR.REFUND_ATTEMPTS_LIMITED,
    ]);
  });

  it('has no bare code number in the app outside its home', () => {
    const known = new Set<number>(Object.values(MERCHANT_ERROR));
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = relative(SRC, file).split('\\').join('/');
      if (rel.startsWith('sandbox/') || rel === HOME) continue;
      for (const match of codeOnly(readFileSync(file, 'utf8')).matchAll(/\b[45]\d{5}\b/g)) {
        if (known.has(Number(match[0]))) found.push(`${rel}: ${match[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
