// Which low-balance banners to show (issue 17: one per merchant). A crossing of the active merchant's
// line shows its balance as the header reads it now and goes by itself once that is back at or above
// the line; another merchant's crossing names that merchant and shows the balance it reported (its
// line and its balance now are that profile's, not the active one's, so they never decide it here):
// it stays until dismissed or until that merchant becomes the active one.
import type { MerchantTag } from '../../../shared/ipc/views/profiles';

export interface LowBalanceCrossing {
  readonly balanceFen: number;
  /** The merchant the notification named; null when it named none (a single merchant: the active one). */
  readonly merchant: MerchantTag | null;
}

export interface ActiveBalance {
  readonly profileId: string | null;
  /** The active merchant's balance as last read; null while unknown. */
  readonly balanceFen: number | null;
  /** The active merchant's line; null while unknown. */
  readonly lineFen: number | null;
}

export interface LowBalanceBannerView {
  /** The crossing's key in the store (dismissing it). */
  readonly key: string;
  readonly balanceFen: number;
  /** The line to name (the active merchant's), or null for another merchant's crossing. */
  readonly lineFen: number | null;
  /** Named when there are several merchants to tell apart. */
  readonly merchant: MerchantTag | null;
}

export interface LowBalanceViews {
  readonly shown: readonly LowBalanceBannerView[];
  /** Crossings of the active merchant whose balance is back at or above its line: to drop. */
  readonly recovered: readonly string[];
}

/** The store's key of a crossing: the merchant's profile id, or '' when the notification named none. */
export function crossingKey(merchant: MerchantTag | null | undefined): string {
  return merchant?.profileId ?? '';
}

export function lowBalanceViews(crossings: Readonly<Record<string, LowBalanceCrossing>>, active: ActiveBalance, severalMerchants: boolean): LowBalanceViews {
  const shown: LowBalanceBannerView[] = [];
  const recovered: string[] = [];
  for (const [key, crossing] of Object.entries(crossings)) {
    const merchant = severalMerchants ? crossing.merchant : null;
    const isActive = key === '' || key === active.profileId;
    if (!isActive) {
      shown.push({ key, balanceFen: crossing.balanceFen, lineFen: null, merchant });
      continue;
    }
    const balanceFen = active.balanceFen ?? crossing.balanceFen;
    const line = active.lineFen;
    if (line !== null && (line === 0 || balanceFen >= line)) {
      recovered.push(key);
      continue;
    }
    shown.push({ key, balanceFen, lineFen: line, merchant });
  }
  return { shown, recovered };
}
