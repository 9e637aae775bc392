// Characters no account, phone number or other top-up entry holds (contract §5, issue 25): U+FFFD
// (what a decoder puts where bytes were broken), unpaired surrogates, noncharacters, and C0/C1
// control characters. Core refuses an entry value holding one before any intent is written, wherever
// the value came from (form, paste, batch file, CLI): garbage must never become a charged order.

export type EntryCharacterProblem = 'replacement' | 'surrogate' | 'noncharacter' | 'control';

/** The first character of `value` no entry holds, and where (1-based, in characters); null when none. */
export function entryCharacterProblem(value: string): { problem: EntryCharacterProblem; position: number } | null {
  let position = 0;
  for (let i = 0; i < value.length; i += 1) {
    position += 1;
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        const point = (code - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
        if ((point & 0xfffe) === 0xfffe) return { problem: 'noncharacter', position };
        i += 1;
        continue;
      }
      return { problem: 'surrogate', position };
    }
    if (code >= 0xdc00 && code <= 0xdfff) return { problem: 'surrogate', position };
    if (code === 0xfffd) return { problem: 'replacement', position };
    if (code === 0xfffe || code === 0xffff || (code >= 0xfdd0 && code <= 0xfdef)) return { problem: 'noncharacter', position };
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return { problem: 'control', position };
  }
  return null;
}
