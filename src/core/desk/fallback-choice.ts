// The one decision of "compare and fall back" (issue 17, contract §15.4): given the variant an order
// is for, the other members of its link and the link's rule, why the order cannot go where it was
// meant to (if it cannot), the others in the order the buyer sees them, and the member the rule
// orders from unasked. The order dialog's offers, the batch and the CLI's --fallback all decide here,
// so they can never disagree. Pure: the facts (prices, stock) come from the catalog caches.
//
// The rule's promise, kept by construction: a choice is only ever made under a rule, only when the
// variant asked for cannot be ordered (cannot supply, not enough stock, or above the rule's limit),
// only of a merchant the rule names, and only of a member that can supply the units at or below the
// limit; among those, the rule's preference decides, then the lower price.
import type { FallbackRule, VariantKey } from '../../shared/ipc/views/compare';
import type { OFFER_REASONS } from '../../shared/ipc/views/compare';

export type Supply = 'available' | 'outOfStock' | 'unavailable' | 'unknown';
export type OfferReason = (typeof OFFER_REASONS)[number];

/** A member as the cache knows it now. */
export interface MemberFacts {
  readonly key: VariantKey;
  /** null: the cache has no price for it. */
  readonly unitPriceFen: number | null;
  readonly supply: Supply;
  /** Published units left (tracked variants); null when not counted. */
  readonly remainingUnits: number | null;
}

export interface JudgedMember extends MemberFacts {
  /** At or below the rule's limit; null without a rule. */
  readonly withinLimit: boolean | null;
  /** Can supply the units asked, as far as the cache knows. */
  readonly canSupply: boolean;
}

export interface FallbackDecision {
  readonly current: JudgedMember;
  /** Why the variant asked for cannot be ordered as it is; null when it can. */
  readonly reason: OfferReason | null;
  /** The link's other members: the rule's preference first (in its order), then the cheapest. */
  readonly alternatives: readonly JudgedMember[];
  /** What the rule orders from unasked; null without a rule, when nothing is wrong, or when no member qualifies. */
  readonly choice: JudgedMember | null;
}

export interface FallbackQuestion {
  readonly current: MemberFacts;
  /** The link's other members (empty when the variant is in no link). */
  readonly others: readonly MemberFacts[];
  readonly rule: FallbackRule | null;
  readonly units: number;
}

export function canSupply(member: MemberFacts, units: number): boolean {
  return member.supply === 'available' && member.unitPriceFen !== null && (member.remainingUnits === null || units <= member.remainingUnits);
}

function judge(member: MemberFacts, rule: FallbackRule | null, units: number): JudgedMember {
  const withinLimit = rule === null ? null : member.unitPriceFen !== null && member.unitPriceFen <= rule.maxUnitPriceFen;
  return { ...member, withinLimit, canSupply: canSupply(member, units) };
}

/** Why the variant cannot be ordered for these units (and within the rule's limit), or null. */
export function offerReason(member: JudgedMember, units: number): OfferReason | null {
  if (member.supply === 'outOfStock') return 'outOfStock';
  // Unknown is never purchasable (interface v1 §3.1): for the buyer it is "cannot be had now".
  if (member.supply !== 'available' || member.unitPriceFen === null) return 'unavailable';
  if (member.remainingUnits !== null && units > member.remainingUnits) return member.remainingUnits <= 0 ? 'outOfStock' : 'notEnoughStock';
  if (member.withinLimit === false) return 'aboveLimit';
  return null;
}

const keyOrder = (a: VariantKey, b: VariantKey): number =>
  (a.profileId < b.profileId ? -1 : a.profileId > b.profileId ? 1 : 0) || a.productRef - b.productRef || a.variantRef - b.variantRef;

export function decideFallback(question: FallbackQuestion): FallbackDecision {
  const { rule, units } = question;
  const current = judge(question.current, rule, units);
  const reason = offerReason(current, units);
  const rank = (member: MemberFacts): number => {
    const at = rule?.preference.indexOf(member.key.profileId) ?? -1;
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  const price = (member: MemberFacts): number => member.unitPriceFen ?? Number.MAX_SAFE_INTEGER;
  const alternatives = question.others
    .map((member) => judge(member, rule, units))
    .sort((a, b) => rank(a) - rank(b) || price(a) - price(b) || keyOrder(a.key, b.key));
  const choice =
    rule === null || reason === null
      ? null
      : (alternatives.find((member) => rule.preference.includes(member.key.profileId) && member.canSupply && member.withinLimit === true) ?? null);
  return { current, reason, alternatives, choice };
}
