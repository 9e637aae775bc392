// What stands where the merchant's order number would: an order withdrawn before it was sent, or
// refused when it was, has none coming (a refused batch row is numbered only if retried, as a queued
// order again), so "not numbered yet" would promise what will not come: the first says it never
// reached the merchant, the second shows a dash (its refusal is said beside it).
import type { Translate } from './reading-age';

/** notYet: the merchant may still number it; notSent: withdrawn, never sent; none: refused, no number coming. */
export type MissingNumber = 'notYet' | 'notSent' | 'none';

export function missingNumber(intentStatus: string): MissingNumber {
  if (intentStatus === 'withdrawn') return 'notSent';
  if (intentStatus === 'rejected') return 'none';
  return 'notYet';
}

/** The words in the number's place: "not numbered yet", "not sent to the merchant", or a dash. */
export function missingNumberText(t: Translate, intentStatus: string): string {
  const missing = missingNumber(intentStatus);
  return missing === 'notYet' ? t('detail.notNumbered') : missing === 'notSent' ? t('detail.notSent') : '—';
}
