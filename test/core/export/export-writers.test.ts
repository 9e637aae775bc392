// The file writers on their own: CSV as RFC 4180 with BOM, CRLF and the formula guard; SpreadsheetML
// text escapes that survive any character; the XLSX package read back by an independent parser
// (a ZIP reader of its own + the sheet XML) with card numbers as text, prices as numbers, Chinese intact.
import { describe, expect, it } from 'vitest';
import { csvBytes, csvField, csvText, UTF8_BOM } from '../../../src/core/export/csv-writer';
import { codeCell } from '../../../src/core/export/export-table';
import { columnLetters, spreadsheetText } from '../../../src/core/export/ooxml-text';
import type { ExportTable } from '../../../src/core/export/export-table';
import { xlsxBytes } from '../../../src/core/export/xlsx-writer';
import { parseCsv, readXlsx } from './file-readers';

const HEADERS = ['商品', '规格', '订单号', '卡号', '卡密', '有效期至', '下单时间', '单价（元）'];

const table: ExportTable = {
  sheetName: '卡密',
  headers: HEADERS,
  rows: [
    ['腾讯视频 VIP 月卡', '1个月', 'PD_a', '6222021234567890123', 'ABCD-EFGH-2345', '2026-01-01 00:00:00', '2025-05-01 12:30:00', { fen: 1250 }],
    ['爱奇艺 "黄金" 会员, 年卡', null, 'PD_b', '0012345678901234567', '=HYPERLINK("http://x")', null, '2025-05-02 08:00:00', { fen: 19_800 }],
    ['Line\nbreak', '  padded  ', 'PD_c', '99', '+1-2', null, null, null],
  ],
};

describe('csv writer', () => {
  it('writes RFC 4180 records with CRLF after each, quoting only what needs it', () => {
    const text = csvText(table);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n')[0]).toBe(HEADERS.join(','));
    expect(text).toContain('"爱奇艺 ""黄金"" 会员, 年卡"');
    expect(text).toContain('"Line\nbreak"');
    expect(text).toContain('"  padded  "');
    // An unknown value is an empty field, a price two decimals.
    expect(text.split('\r\n')[3]).toBe('"Line\nbreak","  padded  ",PD_c,99,\'+1-2,,,');
  });

  it('starts with the UTF-8 BOM so Excel reads Chinese, and parses back to the same cells', () => {
    const bytes = csvBytes(table);
    expect([...bytes.subarray(0, 3)]).toEqual([...UTF8_BOM]);
    const records = parseCsv(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(3)));
    expect(records).toEqual([
      HEADERS,
      ['腾讯视频 VIP 月卡', '1个月', 'PD_a', '6222021234567890123', 'ABCD-EFGH-2345', '2026-01-01 00:00:00', '2025-05-01 12:30:00', '12.50'],
      ['爱奇艺 "黄金" 会员, 年卡', '', 'PD_b', '0012345678901234567', `'=HYPERLINK("http://x")`, '', '2025-05-02 08:00:00', '198.00'],
      ['Line\nbreak', '  padded  ', 'PD_c', '99', "'+1-2", '', '', ''],
    ]);
  });

  it('writes a code as text a spreadsheet keeps: one TAB after it, quoted; the guard still first; ; and TAB quoted', () => {
    const text = csvText({ sheetName: 's', headers: ['a', 'b', 'c', 'd', 'e'], rows: [[codeCell('8740995830093416'), codeCell('0012'), codeCell('=1+1'), 'x;y', codeCell('a"b')]] });
    expect(text.split('\r\n')[1]).toBe('"8740995830093416\t","0012\t","\'=1+1\t","x;y","a""b\t"');
  });

  it('guards every formula start (= + - @ tab CR) and leaves digits alone', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvField(`${start}1+1`).replace(/^"/, '').startsWith(`'${start}`)).toBe(true);
    expect(csvField('6222021234567890123')).toBe('6222021234567890123');
    expect(csvField('0012')).toBe('0012');
  });
});

/** Reverses spreadsheetText's ST_Xstring step (after XML unescaping), as Excel does when it reads. */
function spreadsheetTextValue(stored: string): string {
  return stored.replace(/_x([0-9A-Fa-f]{4})_/g, (_whole, code: string) => String.fromCharCode(parseInt(code, 16)));
}

describe('SpreadsheetML text', () => {
  it('escapes XML and what XML cannot carry, and reads back exactly', () => {
    const odd = 'a&b<c>"d"\u0001\u001f_x0041_\uFFFF\uD800z';
    const stored = spreadsheetText(odd);
    expect([...stored].every((c) => c.charCodeAt(0) >= 0x20)).toBe(true);
    expect(stored).toContain('&amp;b&lt;c&gt;&quot;d&quot;');
    const xmlDecoded = stored.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    expect(spreadsheetTextValue(xmlDecoded)).toBe(odd);
  });

  it('escapes TAB and CR (which XML readers would normalise) and a literal escape, keeps LF raw', () => {
    expect(spreadsheetText('\r0099\t=1\nx')).toBe('_x000D_0099_x0009_=1\nx');
    expect(spreadsheetText('a_x000D_b')).toBe('a_x005F_x000D_b');
    expect(spreadsheetTextValue(spreadsheetText('\r\t_x000D_\u0000'))).toBe('\r\t_x000D_\u0000');
  });

  it('names columns like Excel', () => {
    expect([0, 7, 25, 26, 27, 701, 702].map(columnLetters)).toEqual(['A', 'H', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});

describe('xlsx writer', () => {
  it('writes a package with the parts a workbook needs and the sheet named in Chinese', async () => {
    const book = readXlsx(await xlsxBytes(table));
    expect(book.parts).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
      'xl/sharedStrings.xml',
    ]);
    expect(book.sheetName).toBe('卡密');
    expect(book.sheetXml).toContain('state="frozen"');
    expect(book.sheetXml).toContain('<autoFilter ref="A1:H4"/>');
  });

  it('keeps card numbers as text (never 6.22E+18), prices as numbers, every other cell exact', async () => {
    const book = readXlsx(await xlsxBytes(table));
    const texts = book.rows.map((row) => row.map((cell) => cell?.text ?? null));
    expect(texts).toEqual([
      HEADERS,
      ['腾讯视频 VIP 月卡', '1个月', 'PD_a', '6222021234567890123', 'ABCD-EFGH-2345', '2026-01-01 00:00:00', '2025-05-01 12:30:00', '12.50'],
      // No formula guard here: a shared string is never evaluated, so the code stays exactly as delivered.
      ['爱奇艺 "黄金" 会员, 年卡', null, 'PD_b', '0012345678901234567', '=HYPERLINK("http://x")', null, '2025-05-02 08:00:00', '198.00'],
      ['Line\nbreak', '  padded  ', 'PD_c', '99', '+1-2'],
    ]);
    const cardNo = book.rows[1]?.[3];
    expect(cardNo?.type).toBe('s');
    // Style 2 is the Text ("@", numFmtId 49) format, style 3 the "0.00" number format.
    expect(cardNo?.style).toBe('2');
    expect(book.rows[1]?.[7]).toEqual({ text: '12.50', type: 'n', style: '3' });
    expect(book.stylesXml).toMatch(/<cellXfs count="4">.*<xf numFmtId="49" fontId="0"[^>]*\/>.*<xf numFmtId="2"/s);
    expect(book.sheetXml).not.toContain('<f>');
  });

  it('writes an empty selection as a header row only (valid, not a crash)', async () => {
    const book = readXlsx(await xlsxBytes({ ...table, rows: [] }));
    expect(book.rows).toHaveLength(1);
  });
});
