// Properties of the batch CSV decoder (contract §13.1, issue 25), seeded: any UTF-8 (with or without
// BOM) and GB18030 encoding of random Chinese text decodes exactly, and any corruption of such bytes
// is either refused (invalid bytes located, or not a table) or decodes to text without U+FFFD — a
// replacement character never comes out of the reader unmarked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTableText, type DecodedText } from '../../../src/core/batch/batch-file-decode';
import { BatchFileError } from '../../../src/core/batch/batch-file-error';
import { readBatchTable } from '../../../src/core/batch/batch-file-read';
import { gb18030, utf8, utf8Bom } from './batch-fixtures';

const range = (from: number, to: number): fc.Arbitrary<string> => fc.integer({ min: from, max: to }).map((code) => String.fromCodePoint(code));
/** Chinese text as batch files hold it: common and rarer ideographs (extension A, supplementary planes: GB18030's four-byte codes), full-width punctuation, ASCII. */
const chineseChar = fc.oneof(
  { weight: 8, arbitrary: range(0x4e00, 0x9fa5) },
  { weight: 1, arbitrary: range(0x3400, 0x4db5) },
  { weight: 1, arbitrary: range(0x20000, 0x2a6d6) },
  { weight: 1, arbitrary: fc.constantFrom('，', '。', '：', '（', '）', '·', '、') },
  { weight: 3, arbitrary: fc.constantFrom(...'0123456789abcXYZ ,-_@.') },
);
const cell = fc.array(chineseChar, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
const HEADERS = ['游戏账号,数量', '手机号,数量,备注', 'QQ号,区服,数量', '账号,姓名'];
/** A batch file: a Chinese header line, then rows of random cells. */
const batchText = fc
  .tuple(fc.constantFrom(...HEADERS), fc.array(fc.array(cell, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'))
  .map(([header, rows, end]) => [header, ...rows.map((row) => row.join(','))].join(end) + end);
/** Any Chinese text, however short (a few characters may also be valid UTF-8: the rule's one ambiguity). */
const anyText = fc.array(chineseChar, { minLength: 1, maxLength: 40 }).map((chars) => chars.join(''));

const ENCODERS = { 'utf-8': utf8, 'utf-8-bom': utf8Bom, gb18030 } as const;
const SETTINGS = { seed: 2025, numRuns: 400 };

function decodeOrRefuse(bytes: Uint8Array): DecodedText | 'refused' {
  try {
    return decodeTableText(bytes);
  } catch (error) {
    if (error instanceof BatchFileError) return 'refused';
    throw error;
  }
}

describe('batch CSV decoding, properties', () => {
  it('reads every UTF-8, UTF-8-with-BOM and GB18030 encoding of a Chinese batch file exactly', () => {
    fc.assert(
      fc.property(batchText, fc.constantFrom('utf-8', 'utf-8-bom', 'gb18030'), (text, encoding) => {
        expect(decodeTableText(ENCODERS[encoding](text))).toEqual({ text, encoding, invalid: null });
      }),
      SETTINGS,
    );
  });

  it('reads any Chinese text exactly, or (GB18030 bytes that are also valid UTF-8, the one ambiguity) as that UTF-8', () => {
    const ambiguous: string[] = [];
    const refusedShort: string[] = [];
    fc.assert(
      fc.property(anyText, (text) => {
        expect(decodeTableText(utf8(text))).toEqual({ text, encoding: 'utf-8', invalid: null });
        expect(decodeTableText(utf8Bom(text))).toEqual({ text, encoding: 'utf-8-bom', invalid: null });
        const bytes = gb18030(text);
        const read = decodeTableText(bytes);
        if (read.encoding === 'utf-8' && read.invalid === null) {
          ambiguous.push(text);
          expect(read.text).toBe(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
          return;
        }
        // Exact, or refused: never a wrong reading with replacement characters.
        if (read.invalid === null) expect(read).toEqual({ text, encoding: 'gb18030', invalid: null });
        else refusedShort.push(text);
      }),
      { seed: 2025, numRuns: 1000 },
    );
    // Only a few characters can line up as UTF-8 by chance (read as UTF-8, or as UTF-8 with broken bytes: refused).
    for (const text of [...ambiguous, ...refusedShort]) expect([...text].length).toBeLessThanOrEqual(8);
    expect(ambiguous.length + refusedShort.length).toBeLessThan(50);
  });

  it('refuses every corruption of such a file, or reads it without one replacement character', async () => {
    const corruption = fc.record({
      kind: fc.constantFrom('replace', 'delete', 'insert', 'truncate'),
      at: fc.nat(),
      byte: fc.integer({ min: 0x80, max: 0xff }),
    });
    await fc.assert(
      fc.asyncProperty(batchText, fc.constantFrom('utf-8', 'utf-8-bom', 'gb18030'), corruption, async (text, encoding, change) => {
        const bytes = [...ENCODERS[encoding](text)];
        const at = change.at % bytes.length;
        if (change.kind === 'replace') bytes[at] = change.byte;
        if (change.kind === 'delete') bytes.splice(at, 1);
        if (change.kind === 'insert') bytes.splice(at, 0, change.byte);
        if (change.kind === 'truncate') bytes.splice(bytes.length - 1 - (at % 3), Infinity);
        const corrupted = Uint8Array.from(bytes);
        const read = decodeOrRefuse(corrupted);
        if (read === 'refused') return;
        if (read.invalid === null) {
          expect(read.text).not.toContain('\uFFFD');
          return;
        }
        expect(read.invalid.lines.size).toBeGreaterThan(0);
        // The reader refuses it (unless the buyer chose to mark the rows).
        await expect(readBatchTable(corrupted)).rejects.toBeInstanceOf(BatchFileError);
      }),
      SETTINGS,
    );
  });
});
