// Units written as text (the order form's quantity box, a batch file's units column), read one way
// on every side: full-width digits (a Chinese IME, a Chinese spreadsheet) read as digits, surrounding
// spaces are ignored, and anything else (signs, decimals, exponents, letters) is not a whole number
// and is said so rather than guessed at.

/** Longest digit string read as a number: far above any unitRule, far below 2^53. */
export const MAX_UNITS_DIGITS = 9;

export type UnitsTextReading = { readonly ok: true; readonly units: number } | { readonly ok: false; readonly problem: 'empty' | 'notWhole' | 'tooLarge' };

export function readUnitsText(text: string): UnitsTextReading {
  const cleaned = text.normalize('NFKC').trim();
  if (cleaned === '') return { ok: false, problem: 'empty' };
  if (!/^\d+$/.test(cleaned)) return { ok: false, problem: 'notWhole' };
  const digits = cleaned.replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_UNITS_DIGITS) return { ok: false, problem: 'tooLarge' };
  return { ok: true, units: Number(digits) };
}
