// Money stays integer fen everywhere in the app; the screens show it with the one yuan formatter
// (shared/money.ts formatYuan, which the notifications use too) and a dash for an unknown price.
import { formatYuan, parseYuanText } from '../../../shared/money';

/** 123456 → "¥1,234.56"; null (price not known) → "—". */
export function formatFen(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isSafeInteger(fen)) return '—';
  return formatYuan(fen, { symbol: true });
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
