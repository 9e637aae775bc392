// Where a batch goes under its link's fallback rule (contract §15.4, issue 24): the app's desk and the
// CLI's `batch --fallback` both ask here, so they can never disagree. Decided for one unit, and again
// for the file's total units when the merchant counts its stock; a rule with a reason and no qualifying
// member is NoBatchFallbackError (nothing may be placed). Also what each merchant is asked to charge.
import type { BatchFallbackView, BatchMerchantShare } from '../../shared/ipc/views/batch';
import type { LinkMember, VariantKey } from '../../shared/ipc/views/compare';
import { formatYuan } from '../../shared/money';
import type { OfferReason } from './fallback-choice';
import { fallbackOffers, keyText, type ProfileCatalogs } from './fallback-offers';
import type { LinkStore } from './link-store';

const REASON_WORDS: Record<OfferReason, string> = { outOfStock: 'is out of stock', unavailable: 'cannot supply it now', notEnoughStock: 'has fewer units than the batch asks', aboveLimit: 'asks more than the limit' };

export class NoBatchFallbackError extends Error {
  constructor(
    readonly fromName: string,
    readonly reason: OfferReason,
    readonly units: number,
    readonly limitFen: number,
  ) {
    super(`${fromName} ${REASON_WORDS[reason]}, and no merchant of the link's fallback rule can supply ${units} unit(s) at or below ¥${formatYuan(limitFen)}: nothing was placed`);
    this.name = 'NoBatchFallbackError';
  }
}

export interface BatchRoute {
  /** The variant the batch is placed for: the one asked, or the rule's choice. */
  readonly target: VariantKey;
  /** Why and to whom the rule sends it; null when the batch stays where it was asked. */
  readonly fallback: BatchFallbackView | null;
  /** With `fallback`: the rule's choice's cached unit price (at or below the limit). */
  readonly unitPriceFen: number | null;
}

interface Step {
  readonly route: BatchRoute;
  /** The variant has a rule and its merchant counts its stock: the file's units may be more than it has. */
  readonly recheck: boolean;
}

async function decide(links: LinkStore, catalogs: ProfileCatalogs, key: VariantKey, units: number): Promise<Step> {
  const { offers, decision, members } = await fallbackOffers(links, catalogs, key, units);
  const rule = offers.link?.rule ?? null;
  const stay: Step = { route: { target: key, fallback: null, unitPriceFen: null }, recheck: rule !== null && offers.current.remainingUnits !== null };
  if (rule === null || decision.reason === null) return stay;
  const choice = decision.choice;
  if (choice === null || choice.unitPriceFen === null) throw new NoBatchFallbackError(offers.current.merchant.name, decision.reason, units, rule.maxUnitPriceFen);
  const to: LinkMember | undefined = members.get(keyText(choice.key));
  const fallback: BatchFallbackView = {
    from: offers.current.merchant,
    to: to?.merchant ?? (await catalogs(choice.key.profileId)).tag,
    reason: decision.reason,
    limitFen: rule.maxUnitPriceFen,
    productRef: choice.key.productRef,
    variantRef: choice.key.variantRef,
    fromUnitPriceFen: offers.current.unitPriceFen,
    ...(to === undefined || to.productName === null ? {} : { productName: to.productName }),
    ...(to === undefined || to.variantTitle === null ? {} : { variantTitle: to.variantTitle }),
  };
  return { route: { target: choice.key, fallback, unitPriceFen: choice.unitPriceFen }, recheck: false };
}

/**
 * The route for a batch of the variant `key`. `totalUnits` reads the file's ready units at the variant
 * asked (only called when the merchant counts its stock and one unit stays there).
 */
export async function routeBatch(links: LinkStore, catalogs: ProfileCatalogs, key: VariantKey, totalUnits: () => Promise<number>): Promise<BatchRoute> {
  const first = await decide(links, catalogs, key, 1);
  if (!first.recheck) return first.route;
  const units = await totalUnits();
  return units <= 1 ? first.route : (await decide(links, catalogs, key, units)).route;
}

/** Per merchant, what a batch of these totals asks: the rule's choice all of it, the merchant it was started from nothing. */
export function merchantShares(fallback: BatchFallbackView, totals: { ok: number; units: number; totalFen: number }, unitPriceFen: number): BatchMerchantShare[] {
  return [
    { merchant: fallback.to, fallback: true, orders: totals.ok, units: totals.units, unitPriceFen, totalFen: totals.totalFen },
    { merchant: fallback.from, fallback: false, orders: 0, units: 0, unitPriceFen: fallback.fromUnitPriceFen ?? null, totalFen: 0 },
  ];
}
