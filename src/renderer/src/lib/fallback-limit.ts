// The price limit of a fallback rule as the buyer types it (yuan) → integer fen, or why it is not one.
// Nothing is guessed: an empty box, 0, a negative amount, pasted text or more than the contract allows
// is said so, and the rule is not saved. Read with the app's one yuan parser (shared/money.ts).
import { fallbackRuleSchema } from '../../../shared/ipc/views/compare';
import { yuanInputToFen } from './money';

/** The contract's ceiling of a limit (views/compare.ts), so the screen refuses what core would. */
export const LIMIT_MAX_FEN = fallbackRuleSchema.shape.maxUnitPriceFen.maxValue ?? 100_000_000;

export type LimitError = 'empty' | 'notAmount' | 'zero' | 'negative' | 'tooLarge';

export type LimitParse = { readonly ok: true; readonly fen: number } | { readonly ok: false; readonly error: LimitError };

export function parseLimitText(text: string): LimitParse {
  // Full-width digits and a pasted "¥" or thousands separators are how people write amounts.
  const cleaned = text.normalize('NFKC').trim().replace(/^[¥￥]\s*/, '').replace(/,(?=\d{3}(\D|$))/g, '');
  if (cleaned === '') return { ok: false, error: 'empty' };
  const fen = yuanInputToFen(cleaned);
  if (fen === null || !Number.isSafeInteger(fen)) return { ok: false, error: /^-/.test(cleaned) ? 'negative' : 'notAmount' };
  if (fen < 0) return { ok: false, error: 'negative' };
  if (fen === 0) return { ok: false, error: 'zero' };
  if (fen > LIMIT_MAX_FEN) return { ok: false, error: 'tooLarge' };
  return { ok: true, fen };
}

/** A preference order moved one place: the buyer's up/down buttons. Out of range leaves it as it is. */
export function movePreference(order: readonly string[], index: number, direction: -1 | 1): string[] {
  const target = index + direction;
  const next = order.slice();
  const moving = next[index];
  const other = next[target];
  if (moving === undefined || other === undefined) return next;
  next[index] = other;
  next[target] = moving;
  return next;
}

/**
 * The preference a rule editor starts from: the rule's own, then any member merchant it does not name
 * yet (in the order the link lists them), each once.
 */
export function initialPreference(rulePreference: readonly string[] | null, memberProfiles: readonly string[]): string[] {
  const order: string[] = [];
  for (const id of [...(rulePreference ?? []), ...memberProfiles]) if (!order.includes(id)) order.push(id);
  return order;
}
