// A minimal, valid SpreadsheetML workbook (ECMA-376 Part 1) zipped by @zip.js/zip.js: one worksheet of
// the export table, shared strings, and the styles that keep it honest in Excel and WPS:
// - every text cell, card numbers above all, is a shared string with the "@" (Text) number format:
//   a 19-digit card number as a number would show as 1.23E+18 and lose its last digits for good;
// - prices are real numbers with two decimals ("0.00"), so the buyer can sum them;
// - the header row is bold, frozen, and carries an AutoFilter.
// Strings go through the ST_Xstring escape (ooxml-text.ts) so any character survives exactly.
import { fenToYuanText } from '../../shared/money';
import { isCode, isPrice, type ExportTable } from './export-table';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from './zip-library';
import { columnLetters, spreadsheetText, xmlEscape } from './ooxml-text';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** Cell style indexes of styles.xml's cellXfs. */
const STYLE = { header: 1, text: 2, price: 3 } as const;

/** Column widths in characters (product, variant, order ref, number, password, expiry, ordered, price). */
const WIDTHS = [30, 18, 26, 24, 24, 20, 20, 12];

const CONTENT_TYPES = `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
<Default Extension="xml" ContentType="application/xml"/>\
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>\
<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>\
<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>\
<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>\
</Types>`;

const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">\
<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>\
</Relationships>`;

const WORKBOOK_RELS = `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">\
<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>\
<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>\
<Relationship Id="rId3" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>\
</Relationships>`;

// numFmtId 49 is the built-in "@" (Text), 2 the built-in "0.00".
const STYLES = `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">\
<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>\
<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>\
<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>\
<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>\
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>\
<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>\
<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>\
<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
<xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>\
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>\
</styleSheet>`;

/** Shared strings: each distinct text once (product names repeat on every card of an order). */
class SharedStrings {
  private readonly index = new Map<string, number>();
  private readonly items: string[] = [];
  private references = 0;

  ref(text: string): number {
    this.references += 1;
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.items.length;
      this.items.push(text);
      this.index.set(text, i);
    }
    return i;
  }

  xml(): string {
    const parts = this.items.map((text) => `<si><t xml:space="preserve">${spreadsheetText(text)}</t></si>`);
    return `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${this.references}" uniqueCount="${this.items.length}">${parts.join('')}</sst>`;
  }
}

function sheetXml(table: ExportTable, strings: SharedStrings): string {
  const columns = table.headers.length;
  const lastRow = table.rows.length + 1;
  const range = `A1:${columnLetters(columns - 1)}${lastRow}`;
  const rows: string[] = [];
  const header = table.headers.map((text, c) => `<c r="${columnLetters(c)}1" t="s" s="${STYLE.header}"><v>${strings.ref(text)}</v></c>`);
  rows.push(`<row r="1">${header.join('')}</row>`);
  table.rows.forEach((cells, i) => {
    const r = i + 2;
    const out: string[] = [];
    cells.forEach((cell, c) => {
      const ref = `${columnLetters(c)}${r}`;
      if (cell === null) return;
      if (isPrice(cell)) out.push(`<c r="${ref}" s="${STYLE.price}"><v>${fenToYuanText(cell.fen)}</v></c>`);
      else out.push(`<c r="${ref}" t="s" s="${STYLE.text}"><v>${strings.ref(isCode(cell) ? cell.code : cell)}</v></c>`);
    });
    rows.push(`<row r="${r}">${out.join('')}</row>`);
  });
  const cols = table.headers.map((_h, c) => `<col min="${c + 1}" max="${c + 1}" width="${WIDTHS[c] ?? 16}" customWidth="1"/>`).join('');
  return (
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><dimension ref="${range}"/>` +
    '<sheetViews><sheetView tabSelected="1" workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>${rows.join('')}</sheetData>` +
    `<autoFilter ref="${range}"/></worksheet>`
  );
}

function workbookXml(table: ExportTable): string {
  const lastRow = table.rows.length + 1;
  const name = xmlEscape(table.sheetName);
  // Excel keeps an AutoFilter's range as this hidden defined name; without it, it repairs the file.
  const quoted = `'${table.sheetName.replace(/'/g, "''")}'`;
  const filterRange = xmlEscape(`${quoted}!$A$1:$${columnLetters(table.headers.length - 1)}$${lastRow}`);
  return (
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView activeTab="0"/></bookViews>` +
    `<sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets>` +
    `<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">${filterRange}</definedName></definedNames></workbook>`
  );
}

/** The .xlsx package bytes (a ZIP of the parts above). */
export async function xlsxBytes(table: ExportTable): Promise<Uint8Array> {
  const strings = new SharedStrings();
  const sheet = sheetXml(table, strings);
  const utf8 = new TextEncoder();
  // [Content_Types].xml first, as Office writes it; each entry deflated in memory and written with
  // its sizes in the local header (no data descriptors, no extra timestamp fields).
  const parts: [string, Uint8Array][] = [
    ['[Content_Types].xml', utf8.encode(CONTENT_TYPES)],
    ['_rels/.rels', utf8.encode(ROOT_RELS)],
    ['xl/workbook.xml', utf8.encode(workbookXml(table))],
    ['xl/_rels/workbook.xml.rels', utf8.encode(WORKBOOK_RELS)],
    ['xl/styles.xml', utf8.encode(STYLES)],
    ['xl/worksheets/sheet1.xml', utf8.encode(sheet)],
    ['xl/sharedStrings.xml', utf8.encode(strings.xml())],
  ];
  try {
    const writer = new ZipWriter(new Uint8ArrayWriter(), { level: 6, bufferedWrite: true, dataDescriptor: false, extendedTimestamp: false });
    for (const [name, bytes] of parts) await writer.add(name, new Uint8ArrayReader(bytes));
    return await writer.close();
  } finally {
    // The plain parts held the card codes: overwritten before they are left to the collector.
    for (const [, bytes] of parts) bytes.fill(0);
  }
}
