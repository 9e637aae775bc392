// The catalog's price filter rule both sides check: the renderer names the mistake in the filter
// form before asking, and core's catalog.search refuses it (INVALID_INPUT on minPriceFen), so a
// range that cannot match anything is never answered with "no products, reduce your filters".

/** The field a price range is wrong on, or null when it is a range (either bound may be absent). */
export function priceRangeProblem(minPriceFen: number | null | undefined, maxPriceFen: number | null | undefined): 'minPriceFen' | null {
  if (minPriceFen === null || minPriceFen === undefined || maxPriceFen === null || maxPriceFen === undefined) return null;
  return minPriceFen > maxPriceFen ? 'minPriceFen' : null;
}

export const PRICE_RANGE_MESSAGE = 'the lowest price is above the highest price';
