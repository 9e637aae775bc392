// Hostile batch files made in the test, never checked in: XLSX packages zipped by hand (so a header can
// lie), their big parts deflated as a stream (a 1.7 GB bomb is never in memory, only its ~1.6 MB of
// deflate), a million-row sheet, DOCTYPE/ENTITY declarations in a sheet or the shared strings.
import { once } from 'node:events';
import { createDeflateRaw, crc32 } from 'node:zlib';

export interface ZipPart {
  readonly name: string;
  /** Raw deflate of the part. */
  readonly deflated: Uint8Array;
  readonly crc: number;
  /** What the headers say the part inflates to (a lie when the test wants one). */
  readonly declaredSize: number;
  /** What the central directory says the deflate takes (default: the truth). */
  readonly declaredCompressedSize?: number;
}

/** Deflates what `pieces` yields, writing with backpressure: memory holds the output only. */
export async function deflatePieces(pieces: Iterable<string | Uint8Array>, level = 9): Promise<{ deflated: Uint8Array; crc: number; size: number }> {
  const deflater = createDeflateRaw({ level, memLevel: 9 });
  const out: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = once(deflater, 'end');
  let crc = 0;
  let size = 0;
  for (const piece of pieces) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    crc = crc32(bytes, crc);
    size += bytes.byteLength;
    if (!deflater.write(bytes)) await once(deflater, 'drain');
  }
  deflater.end();
  await ended;
  return { deflated: new Uint8Array(Buffer.concat(out)), crc, size };
}

export async function part(name: string, pieces: Iterable<string | Uint8Array>, lie: { declaredSize?: number; declaredCompressedSize?: number } = {}): Promise<ZipPart> {
  const { deflated, crc, size } = await deflatePieces(pieces);
  return { name, deflated, crc, declaredSize: lie.declaredSize ?? size, ...(lie.declaredCompressedSize === undefined ? {} : { declaredCompressedSize: lie.declaredCompressedSize }) };
}

/** A ZIP of the parts (deflate, sizes in the local headers, no data descriptors), as Office writes one. */
export function zipOf(parts: readonly ZipPart[]): Uint8Array {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const compressed = p.declaredCompressedSize ?? p.deflated.byteLength;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(compressed >>> 0, 18);
    local.writeUInt32LE(p.declaredSize >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(p.crc >>> 0, 16);
    entry.writeUInt32LE(compressed >>> 0, 20);
    entry.writeUInt32LE(p.declaredSize >>> 0, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    chunks.push(local, name, Buffer.from(p.deflated));
    offset += 30 + name.length + p.deflated.byteLength;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...chunks, directory, end]));
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

export const SHEET_START = `${HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetData>`;
export const SHEET_END = '</sheetData></worksheet>';

/** A whole workbook around the given sheet (and shared strings, styles): the parts Excel needs. */
export async function workbookOf(sheet: ZipPart | Iterable<string | Uint8Array>, extra: { sharedStrings?: ZipPart | Iterable<string | Uint8Array>; styles?: ZipPart | Iterable<string | Uint8Array>; workbook?: string } = {}): Promise<Uint8Array> {
  const asPart = async (name: string, given: ZipPart | Iterable<string | Uint8Array>): Promise<ZipPart> => ('deflated' in given ? given : part(name, given));
  const rels =
    `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
    (extra.sharedStrings === undefined ? '' : `<Relationship Id="rId2" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>`) +
    (extra.styles === undefined ? '' : `<Relationship Id="rId3" Type="${REL_NS}/styles" Target="styles.xml"/>`) +
    '</Relationships>';
  const workbook = extra.workbook ?? `${HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  const parts = [await part('[Content_Types].xml', [`${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`]), await part('xl/workbook.xml', [workbook]), await part('xl/_rels/workbook.xml.rels', [rels])];
  if (extra.styles !== undefined) parts.push(await asPart('xl/styles.xml', extra.styles));
  parts.push(await asPart('xl/worksheets/sheet1.xml', sheet));
  if (extra.sharedStrings !== undefined) parts.push(await asPart('xl/sharedStrings.xml', extra.sharedStrings));
  return zipOf(parts);
}

/** The pieces of each in turn, without joining them. */
export function* chain(...sources: Iterable<string | Uint8Array>[]): Generator<string | Uint8Array> {
  for (const source of sources) yield* source;
}

/** `count` times `piece`, then the tail, without ever joining them. */
export function* repeated(head: string, piece: string | Uint8Array, count: number, tail: string): Generator<string | Uint8Array> {
  yield head;
  for (let i = 0; i < count; i += 1) yield piece;
  yield tail;
}

/**
 * The bomb: a sheet whose one cell holds `mib` MiB of the digit 0 (1,700 ≈ 1.7 GB → ~1.65 MB of
 * deflate, under the 2 MiB file bound), optionally with headers declaring a small, harmless size.
 */
export async function bombXlsx(mib: number, lyingHeaders: boolean): Promise<Uint8Array> {
  const zeros = new Uint8Array(1024 * 1024).fill(0x30);
  const sheet = await part('xl/worksheets/sheet1.xml', repeated(`${SHEET_START}<row r="1"><c r="A1" t="inlineStr"><is><t>`, zeros, mib, `</t></is></c></row>${SHEET_END}`), lyingHeaders ? { declaredSize: 4096 } : {});
  return workbookOf(sheet);
}

/**
 * A header and `rows` data rows of an account and a number, without cell references and with one
 * account in 8 varying: it deflates ~80× (a million rows in 0.9 MB; with references it would be 8 MB).
 */
export function* manyRows(rows: number): Generator<string> {
  yield `${SHEET_START}<row><c t="inlineStr"><is><t>account</t></is></c><c t="inlineStr"><is><t>units</t></is></c></row>`;
  let block = '';
  for (let i = 0; i < rows; i += 1) {
    const account = i % 8 === 0 ? `138${String((i * 7919) % 100_000_000).padStart(8, '0')}` : '13800138000';
    block += `<row><c t="inlineStr"><is><t>${account}</t></is></c><c><v>1</v></c></row>`;
    if (block.length > 60_000) {
      yield block;
      block = '';
    }
  }
  yield `${block}${SHEET_END}`;
}

/**
 * `mib` MiB of elements no reader looks at (`<f>` holding 100,000 characters of text), with a
 * pseudo-random number every 112 characters so that it deflates only ~50× (a bomb deflates ~1000×).
 */
export function* filler(mib: number, seed = 1): Generator<string> {
  let state = seed;
  const run = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(3);
  for (let written = 0; written < mib * 1024 * 1024; ) {
    let text = '<f>';
    while (text.length < 100_000) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      text += `${run}${state % 10_000}`;
    }
    text += '</f>';
    written += text.length;
    yield text;
  }
}

export const ENTITY_SHEET = `<?xml version="1.0"?>\n<!DOCTYPE worksheet [<!ENTITY xxe "13800138000">]>\n<worksheet xmlns="${MAIN_NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>account</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>&xxe;</t></is></c></row></sheetData></worksheet>`;

export const LAUGHS_STRINGS = `<?xml version="1.0"?>\n<!DOCTYPE sst [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>\n<sst xmlns="${MAIN_NS}"><si><t>account</t></si><si><t>&lol2;</t></si></sst>`;

/** A sheet of two shared strings (0 = header, 1 = value): with LAUGHS_STRINGS, the entity is in the strings part. */
export const SHARED_SHEET = `${SHEET_START}<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>${SHEET_END}`;

/** No DOCTYPE at all, just a reference to an entity nobody declared (what read-excel-file left as literal text). */
export const UNDECLARED_ENTITY_SHEET = `${SHEET_START}<row r="1"><c r="A1" t="inlineStr"><is><t>account</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>&xxe;</t></is></c></row>${SHEET_END}`;
