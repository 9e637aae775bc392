// Exports of hostile codes (16–19 digits, leading zeros, formula starts, CR, TAB, quotes, commas, `;`,
// Chinese, a literal `_x000D_`) opened by LibreOffice, compared digit for digit with what was delivered:
// the CSV with the import dialog's defaults (this LibreOffice's registry) and with no options at all, and
// the decrypted XLSX. LibreOffice is slow: two runs over every case at once, in beforeAll (contract §16).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardExporter } from '../../../src/core/export/card-exporter';
import { createVaultKit, type VaultKit } from './export-kit';
import { MSOFFCRYPTO, parseCsvLines, readXlsx, run } from './file-readers';
import { zipEntries } from './zip-entries';
import { hasTool, libreOfficeProfile, toolPath } from '../../support/external-tools';

const SOFFICE = toolPath('soffice');
const PASSWORD = `Spread-${randomBytes(4).toString('hex')}-表!`;
const T0 = 1_746_000_000;
/** The merchant's order number: 19 digits, what a default import turned into 8.74E+18. */
const ORDER_NO = '8740995830093416017';

/** [card number, password]: every one must come back exactly (or, in the CSV, with the one TAB after it). */
const HOSTILE: readonly (readonly [string, string])[] = [
  ['8740995830093416', '0000123456789012345'],
  ['0012345678901234567', '00000'],
  ['6222021234567890123', ''],
  ['=1+1', '+8613800138000'],
  ['-12', '@SUM(A1:A2)'],
  ['\r0099887766', '\t0088776655'],
  ['A\tB\rC', '=HYPERLINK("http://x","点我")'],
  ['a"b,c;d', '卡密，中文 12'],
  ['1E5', '2026-01-01'],
  ['_x000D_literal', '12 '],
];

let kit: VaultKit;
let work: string;
/** Code cells (order number, card number, password) per card, as each reader saw them. */
let dialogCsv: string[][];
let builtInCsv: string[][];
let workbook: string[][];
let workbookViaLibreOffice: string[][];
/** A control: the order number and a zero-led code as bare fields (the export before contract §16.1), through the same dialog run. */
let bareCsv: string[][];

const CODE_COLUMNS = [2, 3, 4] as const;
const codesOf = (rows: readonly (readonly string[])[]): string[][] => rows.slice(1).map((row) => CODE_COLUMNS.map((c) => row[c] ?? ''));
const expected = (): string[][] => HOSTILE.map(([no, password]) => [ORDER_NO, no, password]);

/** LibreOffice run as a user would (its own profile in the work folder), converting to CSV: UTF-8, comma, quote. */
function convert(outDir: string, files: readonly string[], infilter?: string): void {
  mkdirSync(outDir, { recursive: true });
  const args = ['--headless', libreOfficeProfile(work), ...(infilter === undefined ? [] : [`--infilter=${infilter}`])];
  const result = run(SOFFICE, [...args, '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1', '--outdir', outDir, ...files]);
  expect(result.status, result.stderr).toBe(0);
}

/**
 * The text import dialog's defaults in this LibreOffice (registry main.xcd, Office.Calc/Dialogs/CSVImport):
 * separators , ; TAB; quote "; the dialog's charset detection (UTF-8 for a file with a BOM); from row 1;
 * quoted fields not forced to text; special numbers not detected; spaces not trimmed; formulas NOT evaluated.
 */
const DIALOG_DEFAULTS = 'Text - txt - csv (StarCalc):44/59/9,34,76,1,,0,false,false,false,false,false,-1,false';

beforeAll(async () => {
  kit = await createVaultKit();
  await kit.deliver({
    clientOrderRef: 'PD_hostile',
    platformOrderRef: ORDER_NO,
    productRef: 7,
    variantRef: 1,
    productName: '测试商品, "引号"',
    variantTitle: '面值;100',
    unitPriceFen: 1000,
    createdAt: T0,
    cards: HOSTILE.map(([no, password]) => ({ card_no: no, card_password: password, expiresAt: null })),
  });
  work = join(process.cwd(), 'test-results', `spreadsheet-${randomBytes(4).toString('hex')}`);
  mkdirSync(work, { recursive: true });
  const exporter = createCardExporter({ db: kit.core.db, vault: kit.core.vault, logger: kit.logger, now: () => T0 + 3600 });
  const selection = { kind: 'order', clientOrderRef: 'PD_hostile' } as const;
  const csv = await exporter.export({ selection, format: 'csv', acceptPlainText: true }, () => Promise.resolve(join(work, 'cards.csv')));
  const xlsx = await exporter.export({ selection, format: 'xlsx', password: PASSWORD, passwordConfirm: PASSWORD }, () => Promise.resolve(join(work, 'sealed.xlsx')));
  if (csv.status !== 'written' || xlsx.status !== 'written') throw new Error('not written');
  const decrypted = run(MSOFFCRYPTO, ['-p', PASSWORD, xlsx.path, join(work, 'book.xlsx')]);
  expect(decrypted.status, decrypted.stderr).toBe(0);
  workbook = readXlsx(readFileSync(join(work, 'book.xlsx'))).rows.map((row) => Array.from({ length: 10 }, (_v, i) => row[i]?.text ?? ''));
  if (!hasTool('soffice')) return;
  // One run with the dialog's defaults (the CSV and the bare control), one with none at all (the CSV and the workbook).
  const bare = join(work, 'bare.csv');
  writeFileSync(bare, `\uFEFFa,b\r\n${ORDER_NO},0012345678901234567\r\n`);
  convert(join(work, 'dialog'), [csv.path, bare], DIALOG_DEFAULTS);
  convert(join(work, 'built-in'), [csv.path, join(work, 'book.xlsx')]);
  const read = (path: string): string[][] => parseCsvLines(readFileSync(path, 'utf8'));
  dialogCsv = read(join(work, 'dialog', 'cards.csv'));
  bareCsv = read(join(work, 'dialog', 'bare.csv'));
  builtInCsv = read(join(work, 'built-in', 'cards.csv'));
  workbookViaLibreOffice = read(join(work, 'built-in', 'book.csv'));
}, 600_000);

afterAll(async () => {
  await kit?.close();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the XLSX', () => {
  it('holds every code exactly (CR, TAB, leading = and a literal _x000D_ included) as typed strings', () => {
    expect(codesOf(workbook)).toEqual(expected());
    // The package carries no raw CR or TAB (XML readers normalise them) and no formula.
    const parts = zipEntries(readFileSync(join(work, 'book.xlsx')));
    const strings = new TextDecoder().decode(parts.get('xl/sharedStrings.xml'));
    expect(strings).not.toMatch(/[\r\t]/);
    expect(strings).toContain('_x000D_0099887766');
    expect(strings).toContain('_x005F_x000D_literal');
    expect(new TextDecoder().decode(parts.get('xl/worksheets/sheet1.xml'))).not.toContain('<f>');
  });

  it.skipIf(!hasTool('soffice'))('reads back exactly in LibreOffice: every code, digit for digit, CR and TAB kept', () => {
    expect(codesOf(workbookViaLibreOffice)).toEqual(expected());
  });
});

describe.skipIf(!hasTool('soffice'))('the CSV in LibreOffice', () => {
  /** What a spreadsheet shows of a code written by the CSV writer: the guard's apostrophe before a formula start, the one TAB after. */
  const shown = (code: string): string => `${/^[=+\-@\t\r]/.test(code) ? "'" : ''}${code}\t`;

  it('with the import dialog defaults: every code text with every digit and zero (only a CR inside a cell read as LF)', () => {
    expect(dialogCsv[0]?.slice(0, 5)).toEqual(['商品', '规格', '订单号', '卡号', '卡密']);
    const got = codesOf(dialogCsv);
    // A CR inside a quoted field is a line break to LibreOffice's CSV import (contract §16.1): the XLSX and TXT keep it.
    const want = expected().map((row) => row.map((code) => (code === '' ? '' : shown(code).replace(/\r\n?/g, '\n'))));
    expect(got).toEqual(want);
    for (const [i, [no]] of HOSTILE.entries()) if (/^\d+$/.test(no)) expect(got[i]?.[1]?.replace(/\t$/, '')).toBe(no);
    expect(got.every((row) => row[0] === `${ORDER_NO}\t`)).toBe(true);
    // Other cells as written: the product name with its comma and quotes, the variant with its semicolon.
    expect(dialogCsv[1]?.slice(0, 2)).toEqual(['测试商品, "引号"', '面值;100']);
  });

  it('with no import options at all: the same digits (formulas evaluated there, the guard keeps them text)', () => {
    // This import reads the file in the system's 8-bit charset: only the ASCII codes are comparable.
    const got = codesOf(builtInCsv);
    for (const [i, row] of expected().entries()) {
      for (const [c, code] of row.entries()) {
        if (code === '' || /[^\x20-\x7e\r\t]/.test(code)) continue;
        expect(got[i]?.[c], `card ${i + 1}, column ${c}`).toBe(shown(code).replace(/\r\n?/g, '\n'));
      }
    }
  });

  it('loses digits and zeros when a code is written bare, as before (so this test can fail)', () => {
    // 19 digits are more than a double holds (LibreOffice keeps 17 significant digits, Excel 15).
    expect(bareCsv[1]?.[0]).not.toBe(ORDER_NO);
    expect(bareCsv[1]?.[1]).not.toBe('0012345678901234567');
  });
});
