// Decoding a batch CSV exactly or locating its invalid bytes (contract §13.1, issue 25): valid UTF-8,
// UTF-8 with BOM and GB18030 (four-byte sequences too) read exactly; broken GB18030, broken UTF-8 and
// a truncated final sequence located by line and column in characters; a UTF-8 file with one broken
// sequence is never read as GB18030 mojibake, though those bytes are valid GB18030; the byte scans
// agree with the platform's decoders on random bytes.
import { describe, expect, it } from 'vitest';
import { decodeTableText } from '../../../src/core/batch/batch-file-decode';
import { scanGb18030, scanUtf8 } from '../../../src/core/batch/byte-scan';
import { gb18030, utf8, utf8Bom } from './batch-fixtures';

const bytesOf = (...parts: (Uint8Array | readonly number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => [...part]));
const spots = (bytes: Uint8Array): [number, number][] => [...(decodeTableText(bytes).invalid?.lines ?? new Map<number, number>())];
const gbValid = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder('gb18030', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('decodeTableText', () => {
  const TEXT = '游戏账号,数量\r\n玩家甲,1\r\n"李四, 北京",2\r\n';

  it('reads valid UTF-8, UTF-8 with BOM and GB18030 exactly, saying which', () => {
    expect(decodeTableText(utf8(TEXT))).toEqual({ text: TEXT, encoding: 'utf-8', invalid: null });
    expect(decodeTableText(utf8Bom(TEXT))).toEqual({ text: TEXT, encoding: 'utf-8-bom', invalid: null });
    expect(decodeTableText(gb18030(TEXT))).toEqual({ text: TEXT, encoding: 'gb18030', invalid: null });
  });

  it('reads GB18030 four-byte sequences (supplementary ideographs, extension A, € and é) exactly', () => {
    const text = '账号,备注\n𠀀𪚥,㐀é€\n𡃁,x\n';
    const bytes = gb18030(text);
    // 𠀀 (U+20000) is 95 32 82 36; é (U+00E9) is a four-byte code too.
    expect([...bytes.subarray(10, 14)]).toEqual([0x95, 0x32, 0x82, 0x36]);
    expect(decodeTableText(bytes)).toEqual({ text, encoding: 'gb18030', invalid: null });
  });

  it('locates broken GB18030: a lead byte before a comma, one at the end of a line, and an unmapped four-byte code', () => {
    const bytes = bytesOf(gb18030('游戏账号,数量\r\n玩家'), [0xb0], gb18030(',1\r\n正常,1\r\n乙'), [0xc4], gb18030('\r\n丙'), [0x84, 0x31, 0xa5, 0x30], gb18030(',3\r\n'));
    const decoded = decodeTableText(bytes);
    expect(decoded.encoding).toBe('gb18030');
    expect(decoded.invalid?.encoding).toBe('gb18030');
    // Line 2: 玩家 then the lone lead: column 3. Line 4: 乙 then a lead before CR: column 2. Line 5: 丙 then the unmapped code.
    expect(spots(bytes)).toEqual([
      [2, 3],
      [4, 2],
      [5, 2],
    ]);
    // The replacement text keeps the commas and line ends (the table is still found); only the bad bytes became U+FFFD.
    expect(decoded.text).toBe('游戏账号,数量\r\n玩家\uFFFD,1\r\n正常,1\r\n乙\uFFFD\r\n丙\uFFFD,3\r\n');
  });

  it('locates broken UTF-8 and never reads it as GB18030, although the broken bytes are valid GB18030', () => {
    const good = utf8('账号,数量\n玩家甲乙,1\n');
    const broken = Uint8Array.from(good);
    broken[22] = 0xc0; // the last byte of 甲
    // Both the good and the broken bytes decode as GB18030 without one error: only the evidence tells them apart.
    expect(gbValid(good) && gbValid(broken)).toBe(true);
    const decoded = decodeTableText(broken);
    expect(decoded.encoding).toBe('utf-8');
    expect(decoded.invalid?.encoding).toBe('utf-8');
    expect(spots(broken)).toEqual([[2, 3]]);
    expect(decodeTableText(good)).toEqual({ text: '账号,数量\n玩家甲乙,1\n', encoding: 'utf-8', invalid: null });
  });

  it('locates broken UTF-8 after a BOM, counting columns in characters (a four-byte character is one)', () => {
    const bytes = bytesOf(utf8Bom('账号,数量\n𠀀a😀号,'), [0xff, 0xfe], utf8(',1\n'));
    expect(decodeTableText(bytes).encoding).toBe('utf-8-bom');
    expect(spots(bytes)).toEqual([[2, 6]]);
  });

  it('locates a truncated final sequence in UTF-8 and in GB18030', () => {
    const utf = bytesOf(utf8('账号\n玩家\n甲'), [0xe4, 0xb8]);
    expect(spots(utf)).toEqual([[3, 2]]);
    expect(decodeTableText(utf).text.endsWith('甲\uFFFD')).toBe(true);
    const gb = bytesOf(gb18030('账号\n玩家\n甲乙'), [0x81, 0x30, 0x81]);
    expect(decodeTableText(gb).encoding).toBe('gb18030');
    expect(spots(gb)).toEqual([[3, 3]]);
  });

  it('still refuses binary data as not a table', () => {
    expect(() => decodeTableText(Uint8Array.of(0x00, 0xff, 0x10, 0x80, 0x00, 0x01))).toThrow(/not text/);
  });
});

describe('byte scans', () => {
  it('find exactly the invalid sequences the platform decoders replace, on 100,000 random byte strings', () => {
    let seed = 25;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let n = 0; n < 100_000; n += 1) {
      const bytes = Uint8Array.from({ length: 1 + Math.floor(random() * 8) }, () => {
        const r = random();
        return r < 0.3 ? Math.floor(random() * 128) : r < 0.5 ? 0x30 + Math.floor(random() * 10) : 0x80 + Math.floor(random() * 128);
      });
      for (const [label, scan] of [
        ['utf-8', scanUtf8],
        ['gb18030', scanGb18030],
      ] as const) {
        const replaced = [...new TextDecoder(label).decode(bytes)].filter((char) => char === '\uFFFD').length;
        expect(scan(bytes).errors.length, `${label} ${Buffer.from(bytes).toString('hex')}`).toBe(replaced);
      }
    }
  });

  it('counts the well-formed Chinese characters of UTF-8 (the evidence), not other multi-byte ones', () => {
    expect(scanUtf8(utf8('账号，ＡB é 😀 𠀀')).chinese).toBe(5);
  });
});
