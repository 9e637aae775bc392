// Which low-balance banners to show (issue 17: one per merchant). Each crossing keeps the latest balance
// of its merchant seen since it came, in the order core sent them (an account.changed after the
// crossing updates it; a balance the screen read before the crossing never does, so a render that
// still holds the old, higher balance cannot lower the banner the moment it is raised). The active
// merchant's crossing names its line and goes by itself once that balance is back at or above it;
// another merchant's names that merchant (its line is that profile's, not known here) and stays until
// dismissed or until that merchant is the active one and its balance is back.
import type { MerchantTag } from '../../../shared/ipc/views/profiles';

export interface LowBalanceCrossing {
  /** The balance that crossed, then the latest balance of the same merchant seen since. */
  readonly balanceFen: number;
  /** The merchant the notification named; null when it named none (a single merchant: the active one). */
  readonly merchant: MerchantTag | null;
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

/** Whether a crossing is the active merchant's (its balances arrive as account.changed). */
export function isActiveCrossing(key: string, activeId: string | null): boolean {
  return key === '' || key === activeId;
}

/** `activeId`: the active profile (null while unknown); `lineFen`: its line (null while unknown). */
export function lowBalanceViews(crossings: Readonly<Record<string, LowBalanceCrossing>>, activeId: string | null, lineFen: number | null, severalMerchants: boolean): LowBalanceViews {
  const shown: LowBalanceBannerView[] = [];
  const recovered: string[] = [];
  for (const [key, crossing] of Object.entries(crossings)) {
    const merchant = severalMerchants ? crossing.merchant : null;
    if (!isActiveCrossing(key, activeId)) {
      shown.push({ key, balanceFen: crossing.balanceFen, lineFen: null, merchant });
      continue;
    }
    if (lineFen !== null && (lineFen === 0 || crossing.balanceFen >= lineFen)) {
      recovered.push(key);
      continue;
    }
    shown.push({ key, balanceFen: crossing.balanceFen, lineFen, merchant });
  }
  return { shown, recovered };
}
