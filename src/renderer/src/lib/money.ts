// Money stays integer fen everywhere in the app; it becomes yuan text only here, at the glass.
import { fenToYuanText, parseYuanText } from '../../../shared/money';

/** 123456 → "¥1,234.56"; null (price not known) → "—". */
export function formatFen(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isSafeInteger(fen)) return '—';
  const text = fenToYuanText(fen);
  const negative = text.startsWith('-');
  const [whole = '0', cents = '00'] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}¥${grouped}.${cents}`;
}

/** What the buyer typed as yuan ("12.5") → fen, or null when it is not an exact amount of yuan. */
export function yuanInputToFen(text: string): number | null {
  return parseYuanText(text);
}

/** unit price × units, or null when either is unknown or the product would not be exact. */
export function totalFen(unitPriceFen: number | null | undefined, units: number): number | null {
  if (unitPriceFen === null || unitPriceFen === undefined || !Number.isSafeInteger(units) || units <= 0) return null;
  const total = unitPriceFen * units;
  return Number.isSafeInteger(total) ? total : null;
}
