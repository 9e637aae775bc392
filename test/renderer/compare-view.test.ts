// The compare screen's and the offers' display decisions: linked rows gathered, the cheapest row in
// stock marked (never one out of stock or without a price), and which alternatives can be chosen.
import { describe, expect, it } from 'vitest';
import { cheapestMember, compareLines, offerChoices } from '../../src/renderer/src/lib/compare-view';
import type { CompareRow, LinkMember, Offer, Offers } from '../../src/shared/ipc/views/compare';

function row(profileId: string, productRef: number, priceFromFen: number | null, inStock: boolean, linkIds: number[] = []): CompareRow {
  return {
    merchant: { profileId, name: profileId.toUpperCase() },
    product: { productRef, catalogRef: 1, name: `P${productRef}`, productType: 'card', availability: 'available', brandName: null, imageUrl: null, priceFromFen, variantCount: 1, inStock, detailState: 'stored' },
    linkIds,
  };
}

function member(profileId: string, unitPriceFen: number | null, supply: LinkMember['supply'] = 'available'): LinkMember {
  return { merchant: { profileId, name: profileId }, productRef: 1, variantRef: 0, productName: 'P', variantTitle: 'V', unitPriceFen, supply, remainingUnits: null };
}

const offer = (profileId: string, unitPriceFen: number | null, canSupply: boolean, withinLimit: boolean | null): Offer => ({ ...member(profileId, unitPriceFen), withinLimit, canSupply });

describe('compareLines', () => {
  it("gathers a link's rows where its first row stood and keeps the others in core's order", () => {
    const rows = [row('p1', 1, 500, true, [7]), row('p1', 2, 300, true), row('p2', 9, 450, true, [7]), row('p2', 3, 100, false)];
    const lines = compareLines(rows);
    expect(lines.map((line) => `${line.row.merchant.profileId}/${line.row.product.productRef}`)).toEqual(['p1/1', 'p2/9', 'p1/2', 'p2/3']);
    expect(lines.map((line) => line.groupLinkId)).toEqual([7, 7, null, null]);
    expect(lines.map((line) => line.groupStart)).toEqual([true, false, false, false]);
  });

  it('marks the cheapest row in stock once: not a cheaper one out of stock or without a price', () => {
    const lines = compareLines([row('p1', 1, 500, true), row('p2', 2, 100, false), row('p2', 3, null, true), row('p1', 4, 300, true), row('p2', 5, 300, true)]);
    expect(lines.filter((line) => line.cheapestInStock).map((line) => line.row.product.productRef)).toEqual([4]);
    expect(compareLines([row('p1', 1, 100, false)]).some((line) => line.cheapestInStock)).toBe(false);
  });

  it('shows every row once even when a product is in two links', () => {
    const lines = compareLines([row('p1', 1, 1, true, [1, 2]), row('p2', 2, 1, true, [2]), row('p3', 3, 1, true, [1])]);
    expect(lines).toHaveLength(3);
  });
});

describe('cheapestMember', () => {
  it('is the cheapest member that can be bought', () => {
    expect(cheapestMember([member('p1', 100, 'outOfStock'), member('p2', 300), member('p3', 200), member('p4', null)])?.merchant.profileId).toBe('p3');
    expect(cheapestMember([member('p1', 100, 'unavailable'), member('p2', 50, 'unknown')])).toBeNull();
  });
});

describe('offerChoices', () => {
  const base = (reason: Offers['reason'], alternatives: Offer[], ruleChoice: Offers['ruleChoice'] = null): Offers => ({ current: offer('p1', 900, false, null), reason, alternatives, link: null, ruleChoice });

  it('offers nothing when core gives no reason to look elsewhere', () => {
    expect(offerChoices(base(null, [offer('p2', 100, true, null)]))).toEqual([]);
  });

  it("keeps core's order, lets the buyer choose what can supply with a price, and says why not the rest", () => {
    const choices = offerChoices(base('outOfStock', [offer('p2', 500, true, true), offer('p3', 800, true, false), offer('p4', 100, false, true), offer('p5', null, true, null)], { profileId: 'p2', productRef: 1, variantRef: 0 }));
    expect(choices.map((choice) => [choice.offer.merchant.profileId, choice.choosable, choice.note, choice.ruleChoice])).toEqual([
      ['p2', true, null, true],
      // Above the limit: still the buyer's to choose, at a price they see and confirm.
      ['p3', true, 'aboveLimit', false],
      ['p4', false, 'cannotSupply', false],
      ['p5', false, 'noPrice', false],
    ]);
  });
});
