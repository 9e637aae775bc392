// Where the bytes of a text file are not valid UTF-8 or GB18030, found byte by byte by the WHATWG
// Encoding decoders' own rules (which Node's TextDecoder follows), so a spot found here is exactly
// where the platform's decoder puts a replacement character. Also counts the well-formed UTF-8
// sequences of Chinese text: the evidence that a file not valid as UTF-8 is still UTF-8 (batch-file-decode.ts).

export interface ByteScan {
  /** Byte offsets where an invalid sequence starts, in order. */
  readonly errors: readonly number[];
  /** UTF-8 only: well-formed sequences of two to four bytes that read as Chinese text (chineseCodePoint). */
  readonly chinese: number;
}

/**
 * What Chinese text is written with beyond ASCII: CJK symbols and punctuation, the ideographs (with
 * extension A, compatibility ideographs and the supplementary planes' extensions) and full-width forms.
 */
export function isChineseCodePoint(code: number): boolean {
  return (
    (code >= 0x3000 && code <= 0x303f) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xffef) ||
    (code >= 0x20000 && code <= 0x3ffff)
  );
}

function codePointOf(bytes: Uint8Array, at: number, length: number): number {
  const lead = bytes[at] ?? 0;
  let code = lead & (length === 2 ? 0x1f : length === 3 ? 0x0f : 0x07);
  for (let i = 1; i < length; i += 1) code = (code << 6) | ((bytes[at + i] ?? 0) & 0x3f);
  return code;
}

/** The valid range of a UTF-8 sequence's second byte after lead `lead` (WHATWG: no overlongs, no surrogates, ≤ U+10FFFF). */
function secondByteRange(lead: number): readonly [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** UTF-8 as the WHATWG decoder reads it: each maximal invalid subpart is one error; the byte that ends it is read again. */
export function scanUtf8(bytes: Uint8Array, limit = Infinity): ByteScan {
  const errors: number[] = [];
  let chinese = 0;
  let at = 0;
  while (at < bytes.length && errors.length < limit) {
    const lead = bytes[at] ?? 0;
    if (lead < 0x80) {
      at += 1;
      continue;
    }
    const length = sequenceLength(lead);
    if (length === 0) {
      errors.push(at);
      at += 1;
      continue;
    }
    let next = at + 1;
    let [low, high] = secondByteRange(lead);
    while (next < at + length) {
      const byte = bytes[next];
      if (byte === undefined || byte < low || byte > high) break;
      next += 1;
      [low, high] = [0x80, 0xbf];
    }
    if (next !== at + length) errors.push(at);
    else if (isChineseCodePoint(codePointOf(bytes, at, length))) chinese += 1;
    at = next;
  }
  return { errors, chinese };
}

const inRange = (byte: number | undefined, low: number, high: number): byte is number => byte !== undefined && byte >= low && byte <= high;

/** A four-byte GB18030 sequence's pointer maps to a code point (WHATWG "index gb18030 ranges code point"). */
function fourByteMaps(b1: number, b2: number, b3: number, b4: number): boolean {
  const pointer = (b1 - 0x81) * 12600 + (b2 - 0x30) * 1260 + (b3 - 0x81) * 10 + (b4 - 0x30);
  return pointer <= 39419 || (pointer >= 189000 && pointer <= 1237575);
}

/**
 * GB18030 as the WHATWG decoder reads it: ASCII, 0x80 (€), a lead 0x81–0xFE with a trail 0x40–0x7E or
 * 0x80–0xFE (every such pair maps), or lead, 0x30–0x39, 0x81–0xFE, 0x30–0x39 mapping to a code point.
 * A failed sequence gives back the bytes the decoder reads again, as it does.
 */
export function scanGb18030(bytes: Uint8Array, limit = Infinity): ByteScan {
  const errors: number[] = [];
  let at = 0;
  while (at < bytes.length && errors.length < limit) {
    const b1 = bytes[at] ?? 0;
    if (b1 <= 0x80) {
      at += 1;
      continue;
    }
    if (b1 === 0xff) {
      errors.push(at);
      at += 1;
      continue;
    }
    const b2 = bytes[at + 1];
    if (inRange(b2, 0x30, 0x39)) {
      const b3 = bytes[at + 2];
      const b4 = bytes[at + 3];
      if (b3 === undefined || (b4 === undefined && inRange(b3, 0x81, 0xfe))) {
        // Cut short by the end of the bytes: one error for what is pending.
        errors.push(at);
        break;
      }
      if (!inRange(b3, 0x81, 0xfe)) {
        errors.push(at);
        // The decoder gives back the second and third bytes.
        at += 1;
        continue;
      }
      if (!inRange(b4, 0x30, 0x39)) {
        errors.push(at);
        at += 1;
        continue;
      }
      if (!fourByteMaps(b1, b2, b3, b4)) errors.push(at);
      at += 4;
      continue;
    }
    if (inRange(b2, 0x40, 0x7e) || inRange(b2, 0x80, 0xfe)) {
      at += 2;
      continue;
    }
    errors.push(at);
    // An ASCII second byte is read again; any other (0xFF) or none is consumed with the lead.
    at += b2 !== undefined && b2 < 0x80 ? 1 : 2;
  }
  return { errors, chinese: 0 };
}
