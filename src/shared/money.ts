// Money is integer fen inside the app; yuan (numbers or strings with at most two decimals) only at
// the edges. Parsing is exact: a value with a third decimal is rejected, never rounded away.

export type Fen = number;

const YUAN_TEXT = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/;

/** Parses yuan given as text ("12", "12.5", "12.50") into fen; null when it is not exact yuan. */
export function parseYuanText(text: string): Fen | null {
  const match = YUAN_TEXT.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const fen = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return sign === '-' ? -fen : fen;
}

/**
 * Converts a JSON number of yuan into fen. JSON gives us a double; a value with at most two decimals
 * is the double nearest to k/100, so k is recovered exactly by rounding, and anything further than a
 * rounding error from a whole fen had more than two decimals and is refused.
 */
export function yuanNumberToFen(value: number): Fen | null {
  if (!Number.isFinite(value) || Math.abs(value) > 1e13) return null;
  const fen = Math.round(value * 100);
  return Math.abs(value * 100 - fen) < 1e-6 ? fen : null;
}

/** Fen as a JSON number of yuan (exact: k/100 prints with at most two decimals). */
export function fenToYuanNumber(fen: Fen): number {
  return Number(fenToYuanText(fen));
}

/** Fen as canonical yuan text with two decimals, e.g. 1250 → "12.50". */
export function fenToYuanText(fen: Fen): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  const whole = Math.floor(abs / 100);
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}${whole}.${cents}`;
}

export interface YuanFormat {
  /** With the ¥ sign, after any minus: "-¥19.99". */
  readonly symbol?: boolean;
}

/**
 * Fen as yuan for people, the one way the app shows money (the screens, the notifications): two
 * decimals and thousands grouped, e.g. 123456 → "1,234.56", or "¥1,234.56" with the symbol.
 */
export function formatYuan(fen: Fen, format: YuanFormat = {}): string {
  const text = fenToYuanText(fen);
  const negative = text.startsWith('-');
  const [whole = '0', cents = '00'] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${format.symbol === true ? '¥' : ''}${grouped}.${cents}`;
}
