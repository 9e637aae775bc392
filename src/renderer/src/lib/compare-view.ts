// What the compare screen and the order dialog's offers decide from core's answers, kept apart from
// the screens so it is tested on its own: rows of the same link side by side, the cheapest offer that
// can be bought marked, and which alternatives the dialog lets the buyer choose.
import type { CompareRow, LinkMember, Offer, Offers } from '../../../shared/ipc/views/compare';

export interface CompareLine {
  readonly row: CompareRow;
  /** The link this row is shown under (its first), or null when none of its variants is linked. */
  readonly groupLinkId: number | null;
  /** First row of its link group (the group's heading is drawn above it). */
  readonly groupStart: boolean;
  /** The cheapest row that is in stock among all rows shown (ties: the first in core's order). */
  readonly cheapestInStock: boolean;
}

const rowKey = (row: CompareRow): string => `${row.merchant.profileId}/${row.product.productRef}`;

/**
 * Core's rows (relevance, then cheapest) with the linked ones gathered: each link group appears where
 * its first row stood, its other rows right after it; unlinked rows keep their place.
 */
export function compareLines(rows: readonly CompareRow[]): CompareLine[] {
  const cheapest = cheapestInStockKey(rows);
  const placed = new Set<string>();
  const lines: CompareLine[] = [];
  for (const row of rows) {
    if (placed.has(rowKey(row))) continue;
    const linkId = row.linkIds[0] ?? null;
    const group = linkId === null ? [row] : rows.filter((other) => !placed.has(rowKey(other)) && other.linkIds.includes(linkId));
    group.forEach((member, index) => {
      placed.add(rowKey(member));
      lines.push({ row: member, groupLinkId: linkId, groupStart: linkId !== null && index === 0, cheapestInStock: cheapest === rowKey(member) });
    });
  }
  return lines;
}

function cheapestInStockKey(rows: readonly CompareRow[]): string | null {
  let best: CompareRow | null = null;
  for (const row of rows) {
    const price = row.product.priceFromFen;
    if (!row.product.inStock || price === null) continue;
    if (best === null || price < (best.product.priceFromFen ?? Infinity)) best = row;
  }
  return best === null ? null : rowKey(best);
}

/** The members of a link, the cheapest one that can be bought marked (null when none can). */
export function cheapestMember(members: readonly LinkMember[]): LinkMember | null {
  let best: LinkMember | null = null;
  for (const member of members) {
    if (member.supply !== 'available' || member.unitPriceFen === null) continue;
    if (best === null || member.unitPriceFen < (best.unitPriceFen ?? Infinity)) best = member;
  }
  return best;
}

export interface OfferChoice {
  readonly offer: Offer;
  /** The buyer may move the order there: it can supply the units and has a price to confirm. */
  readonly choosable: boolean;
  /** Why not, for the screen: cannot supply, no price known, or above the rule's limit (still choosable). */
  readonly note: 'cannotSupply' | 'noPrice' | 'aboveLimit' | null;
  /** The one the rule would pick unasked, shown as such (the buyer still confirms it here). */
  readonly ruleChoice: boolean;
}

/**
 * The alternatives the dialog shows, in core's order (the rule's preference, then cheapest). An offer
 * above the limit stays choosable — the buyer sees its price and confirms it — but is said to be above.
 * Nothing is shown when core gives no reason to look elsewhere.
 */
export function offerChoices(offers: Offers): OfferChoice[] {
  if (offers.reason === null) return [];
  return offers.alternatives.map((offer) => {
    const sameAsRule = offers.ruleChoice !== null && offers.ruleChoice.profileId === offer.merchant.profileId && offers.ruleChoice.productRef === offer.productRef && offers.ruleChoice.variantRef === offer.variantRef;
    const note = !offer.canSupply ? 'cannotSupply' : offer.unitPriceFen === null ? 'noPrice' : offer.withinLimit === false ? 'aboveLimit' : null;
    return { offer, choosable: offer.canSupply && offer.unitPriceFen !== null, note, ruleChoice: sameAsRule };
  });
}
