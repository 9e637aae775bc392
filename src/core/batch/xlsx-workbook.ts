// The workbook around the first sheet, as read-excel-file resolved it: the first <sheet> of
// xl/workbook.xml, its part through xl/_rels/workbook.xml.rels, the date system, the styles that make a
// number a date, and — only after the sheet has said which it uses — those shared strings, each kept
// against the file's text budget (MAX_XLSX_TEXT_CHARS).
import { MAX_XLSX_TEXT_CHARS } from '../../shared/batch-file-bounds';
import { BatchFileError } from './batch-file-error';
import { isDateFormat, unescapeSpreadsheetText } from './xlsx-cell-text';
import { readXmlPart } from './xlsx-xml-stream';
import type { XlsxPackage } from './xlsx-zip-parts';

export interface FirstSheet {
  readonly sheetPart: string;
  readonly sharedStringsPart: string | null;
  readonly stylesPart: string | null;
  readonly epoch1904: boolean;
}

/** Characters of cell text kept so far, for the whole file. */
export class TextBudget {
  private chars = 0;
  spend(text: string): void {
    this.chars += text.length;
    if (this.chars > MAX_XLSX_TEXT_CHARS) throw new BatchFileError('tooMuchText', `the XLSX holds more than ${MAX_XLSX_TEXT_CHARS} characters of cell text`);
  }
}

const MAX_STYLES = 100_000;

const unreadable = (reason: string): BatchFileError => new BatchFileError('unreadableSpreadsheet', `the XLSX workbook cannot be read: ${reason}`);

/** A relationship's target as a part name: absolute ("/xl/…") as is, relative from xl/. */
function partOf(target: string): string {
  const segments: string[] = [];
  for (const segment of (target.startsWith('/') ? target.slice(1) : `xl/${target}`).split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

export function readFirstSheet(pkg: XlsxPackage): FirstSheet {
  // Filled by the handlers below (a holder, as the parser calls back into this function).
  const found: { sheets: Map<string, string>; sharedStrings: string | null; styles: string | null; firstId: string | null; epoch1904: boolean | null } = {
    sheets: new Map(),
    sharedStrings: null,
    styles: null,
    firstId: null,
    epoch1904: null,
  };
  readXmlPart(pkg, 'xl/_rels/workbook.xml.rels', {
    open(name, attribute) {
      const [id, type = '', target] = [attribute('Id'), attribute('Type'), attribute('Target')];
      if (name !== 'Relationship' || target === undefined) return;
      if (type.endsWith('/worksheet') && id !== undefined) found.sheets.set(id, partOf(target));
      else if (type.endsWith('/sharedStrings')) found.sharedStrings = partOf(target);
      else if (type.endsWith('/styles')) found.styles = partOf(target);
    },
  });
  readXmlPart(pkg, 'xl/workbook.xml', {
    open(name, attribute) {
      if (name === 'workbookPr' && found.epoch1904 === null) found.epoch1904 = ['1', 'true'].includes(attribute('date1904') ?? '');
      if (name === 'sheet' && found.firstId === null && attribute('name') !== undefined) found.firstId = attribute('id') ?? '';
    },
  });
  if (found.firstId === null) throw unreadable('the workbook has no sheet');
  const sheetPart = found.sheets.get(found.firstId);
  if (sheetPart === undefined) throw unreadable(`the first sheet (${found.firstId}) has no part`);
  return {
    sheetPart,
    sharedStringsPart: found.sharedStrings ?? (pkg.has('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : null),
    stylesPart: found.styles ?? (pkg.has('xl/styles.xml') ? 'xl/styles.xml' : null),
    epoch1904: found.epoch1904 ?? false,
  };
}

/** For each cell style (the `s` of a cell), whether its number format shows a date. */
export function readDateStyles(pkg: XlsxPackage, part: string | null): readonly boolean[] {
  if (part === null || !pkg.has(part)) return [];
  const codes = new Map<number, string>();
  const baseFormats: (number | undefined)[] = [];
  const dates: boolean[] = [];
  let inside: 'base' | 'cell' | null = null;
  readXmlPart(pkg, part, {
    open(name, attribute) {
      if (name === 'numFmt') {
        const [id, code] = [Number(attribute('numFmtId')), attribute('formatCode')];
        if (id >= 100 && code !== undefined) codes.set(id, code);
      } else if (name === 'cellStyleXfs') inside = 'base';
      else if (name === 'cellXfs') inside = 'cell';
      else if (name === 'xf' && inside !== null) {
        if (baseFormats.length + dates.length >= MAX_STYLES) throw unreadable(`more than ${MAX_STYLES} cell styles`);
        const ownId = attribute('numFmtId');
        const own = ownId === undefined ? undefined : Number(ownId);
        if (inside === 'base') baseFormats.push(own);
        else {
          const id = own ?? baseFormats[Number(attribute('xfId') ?? -1)];
          dates.push(id !== undefined && isDateFormat(id, codes.get(id)));
        }
      }
    },
    close(name) {
      if (name === 'cellStyleXfs' || name === 'cellXfs') inside = null;
    },
  });
  return dates;
}

/**
 * The shared strings whose index `wanted` holds (a bit per index), each as the cell shows it: its
 * runs' text joined, phonetic runs left out, escapes decoded. Strings no cell uses are not kept.
 */
export function readSharedStrings(pkg: XlsxPackage, part: string | null, wanted: Uint8Array, budget: TextBudget): Map<number, string> {
  const strings = new Map<number, string>();
  if (part === null || !pkg.has(part) || wanted.length === 0) return strings;
  let index = -1;
  let text: string | null = null;
  let inText = false;
  let phonetic = 0;
  const isWanted = (i: number): boolean => i >> 3 < wanted.length && ((wanted[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
  readXmlPart(pkg, part, {
    open(name) {
      if (name === 'si') {
        index += 1;
        text = isWanted(index) ? '' : null;
      } else if (name === 'rPh') phonetic += 1;
      else if (name === 't') inText = true;
    },
    close(name) {
      if (name === 'si' && text !== null) {
        const value = unescapeSpreadsheetText(text);
        budget.spend(value);
        strings.set(index, value);
        text = null;
      } else if (name === 'rPh') phonetic -= 1;
      else if (name === 't') inText = false;
    },
    text(chunk) {
      if (text !== null && inText && phonetic === 0) {
        text += chunk;
        if (text.length > MAX_XLSX_TEXT_CHARS) budget.spend(text);
      }
    },
  });
  return strings;
}
