// The streamed XLSX reader keeps the cell semantics the batch had with read-excel-file (contract §13.1):
// numbers as written (every digit of a long one), dates as YYYY-MM-DD from the cell's style (built-in,
// custom, inherited, 1904 system), booleans, error cells empty, formula strings, inline and shared
// strings with rich and phonetic runs, `_xHHHH_` escapes, trimming; the first sheet through the
// workbook's relationships; prefixed element names; the sheet's own row numbers; and only the shared
// strings the sheet uses are kept.
import { describe, expect, it } from 'vitest';
import { BatchFileError } from '../../../src/core/batch/batch-file-error';
import { readBatchTable } from '../../../src/core/batch/batch-file-read';
import { readXlsxRows } from '../../../src/core/batch/xlsx-stream-read';
import { MAX_XLSX_TEXT_CHARS } from '../../../src/shared/batch-file-bounds';
import { chain, part, SHEET_END, SHEET_START, workbookOf, zipOf } from './hostile-xlsx';

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const STYLES =
  `<styleSheet xmlns="${MAIN_NS}"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy&quot;年&quot;m&quot;月&quot;d&quot;日&quot;"/><numFmt numFmtId="165" formatCode="0.00_);[Red]\\(0.00\\)"/></numFmts>` +
  '<cellStyleXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellStyleXfs>' +
  '<cellXfs count="5"><xf numFmtId="0" xfId="0"/><xf numFmtId="14" xfId="0"/><xf numFmtId="164" xfId="0"/><xf numFmtId="165" xfId="0"/><xf xfId="1"/></cellXfs></styleSheet>';

function problemOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof BatchFileError) return error.problem;
    throw error;
  }
  return 'read';
}

describe('the streamed XLSX reader', () => {
  it('reads numbers as written, dates by style, booleans, errors, formulas, inline and shared strings as before', async () => {
    const sheet =
      `${SHEET_START}<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>c</t></is></c><c r="D1" t="inlineStr"><is><t>d</t></is></c><c r="E1" t="inlineStr"><is><t>e</t></is></c><c r="F1" t="inlineStr"><is><t>f</t></is></c></row>` +
      '<row r="2"><c r="A2"><v>8740995830093416</v></c><c r="B2" s="1"><v>45322</v></c><c r="C2" s="2"><v>45322.75</v></c><c r="D2" s="3"><v>0012.50</v></c><c r="E2" s="4"><v>45322</v></c><c r="F2" t="b"><v>1</v></c></row>' +
      '<row r="3"><c r="A3" t="str"><f>A2&amp;"x"</f><v>  a_x000D_b  </v></c><c r="B3" t="e"><v>#N/A</v></c><c r="C3" t="inlineStr"><is><r><t>rich </t></r><r><rPr><b/></rPr><t>text</t></r><rPh><t>ルビ</t></rPh></is></c><c r="D3" t="s"><v>2</v></c><c r="E3" t="d"><v>2024-02-29T00:00:00Z</v></c><c r="F3" t="b"><v>0</v></c></row>' +
      `<row r="4"><c r="A4" t="s"><v>3</v></c></row>${SHEET_END}`;
    const strings = `<sst xmlns="${MAIN_NS}"><si><t>account</t></si><si><t xml:space="preserve"> 手机号 </t></si><si><r><t>张</t></r><r><t>三</t></r><rPh sb="0" eb="1"><t>ちょう</t></rPh></si><si><t xml:space="preserve">   </t></si></sst>`;
    const rows = readXlsxRows(await workbookOf([sheet], { sharedStrings: [strings], styles: [STYLES] }));
    expect(rows).toEqual([
      { rowNumber: 1, cells: ['account', '手机号', 'c', 'd', 'e', 'f'] },
      { rowNumber: 2, cells: ['8740995830093416', '2024-01-31', '2024-01-31', '0012.50', '2024-01-31', 'true'] },
      { rowNumber: 3, cells: ['a\rb', '', 'rich text', '张三', '2024-02-29', 'false'] },
    ]);
  });

  it('takes the 1904 date system from the workbook', async () => {
    const workbook = `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><workbookPr date1904="1"/><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`;
    const sheet = `${SHEET_START}<row r="1"><c r="A1" s="1"><v>43860</v></c></row>${SHEET_END}`;
    expect(readXlsxRows(await workbookOf([sheet], { styles: [STYLES], workbook }))).toEqual([{ rowNumber: 1, cells: ['2024-01-31'] }]);
  });

  it('reads the first sheet the workbook lists, wherever its relationship points, with prefixed names and no cell references', async () => {
    const workbook = `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="订单" sheetId="7" r:id="rId9"/><sheet name="Other" sheetId="1" r:id="rId1"/></sheets></workbook>`;
    const rels =
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId9" Type="${REL_NS}/worksheet" Target="/xl/worksheets/../data/orders.xml"/></Relationships>`;
    const first = `<x:worksheet xmlns:x="${MAIN_NS}"><x:sheetData><x:row r="2"><x:c t="inlineStr"><x:is><x:t>a</x:t></x:is></x:c><x:c/><x:c t="inlineStr"><x:is><x:t>c</x:t></x:is></x:c></x:row><x:row><x:c><x:v>7</x:v></x:c></x:row><x:row r="9"><x:c r="B9"><x:v>9</x:v></x:c><x:c r="XFD9" s="3"/></x:row></x:sheetData></x:worksheet>`;
    const bytes = zipOf([
      await part('xl/workbook.xml', [workbook]),
      await part('xl/_rels/workbook.xml.rels', [rels]),
      await part('xl/worksheets/sheet1.xml', [`${SHEET_START}<row r="1"><c r="A1"><v>wrong sheet</v></c></row>${SHEET_END}`]),
      await part('xl/data/orders.xml', [first]),
    ]);
    const table = await readBatchTable(bytes);
    expect(table.header).toEqual(['a', '', 'c']);
    expect(table.rows).toEqual([
      { rowNumber: 3, cells: ['7', '', ''] },
      { rowNumber: 9, cells: ['', '9', ''] },
    ]);
  });

  it('keeps only the shared strings the sheet uses: a table of unused text past the budget still reads', async () => {
    let state = 3;
    function* unused(): Generator<string> {
      yield `<sst xmlns="${MAIN_NS}"><si><t>account</t></si><si><t>13800138000</t></si>`;
      for (let written = 0; written <= MAX_XLSX_TEXT_CHARS; ) {
        let block = '';
        for (let i = 0; i < 200; i += 1) {
          state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
          block += `<si><t>unused text of another sheet ${state % 100_000}</t></si>`;
        }
        written += block.length;
        yield block;
      }
      yield '</sst>';
    }
    const sheet = `${SHEET_START}<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>${SHEET_END}`;
    const table = await readBatchTable(await workbookOf([sheet], { sharedStrings: chain(unused()) }));
    expect(table.rows).toEqual([{ rowNumber: 2, cells: ['13800138000'] }]);
  });

  it('refuses rows out of order, a value past the column bound, a missing shared string and a sheet the rels do not name', async () => {
    const read = async (sheet: string, extra: { sharedStrings?: string[] } = {}): Promise<string> => {
      const bytes = await workbookOf([`${SHEET_START}${sheet}${SHEET_END}`], extra);
      return problemOf(() => readXlsxRows(bytes));
    };
    expect(await read('<row r="5"><c r="A5"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c></row>')).toBe('unreadableSpreadsheet');
    expect(await read('<row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>1</v></c></row>')).toBe('unreadableSpreadsheet');
    expect(await read('<row r="1"><c r="CW1"><v>1</v></c></row>')).toBe('tooManyColumns');
    expect(await read('<row r="1"><c r="CV1"><v>1</v></c><c r="CW1" s="1"/></row>')).toBe('read');
    expect(await read('<row r="1"><c r="A1" t="s"><v>4</v></c></row>', { sharedStrings: ['<sst><si><t>a</t></si></sst>'] })).toBe('unreadableSpreadsheet');
    const orphan = `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="S" sheetId="1" r:id="rId404"/></sheets></workbook>`;
    const bytes = await workbookOf([`${SHEET_START}${SHEET_END}`], { workbook: orphan });
    expect(problemOf(() => readXlsxRows(bytes))).toBe('unreadableSpreadsheet');
  });
});
