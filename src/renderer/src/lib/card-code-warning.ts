// Which orders a warning about card codes concerns: those that deliver card codes. A top-up stores
// none, so telling its buyer that "card codes will not open after a restart" would not be true.
import { classifyProductType } from '../../../shared/merchant/known-values';

/**
 * `card` delivers card codes, `topup` does not; a type this build does not know (or not known yet)
 * is warned about rather than assumed to store nothing.
 */
export function deliversCardCodes(productType: string | null): boolean {
  const c = classifyProductType(productType ?? '');
  return c.kind === 'unknown' || c.value === 'card';
}
