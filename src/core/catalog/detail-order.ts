// The order in which a sync fetches product details (issue 15: "details in the order the buyer will
// need them"): watched products, then products ordered before, then the category the buyer is looking
// at (the last catalog search's catalogRef), then the rest; within a rank by productRef, the list's
// order. The rank is pure; the queue re-reads the focus before each pick, so a buyer who moves to another
// category mid-sync gets that category's details next, and it skips a product whose detail was
// stored meanwhile (the buyer opened it and it was fetched for them), so nothing is fetched twice.

export interface DetailCandidate {
  readonly productRef: number;
  readonly catalogRef: number;
  readonly watched: boolean;
  /** Some order intent names it (any time: the buyer may well look at it again). */
  readonly ordered: boolean;
}

export const DETAIL_RANK = { watched: 0, ordered: 1, focus: 2, rest: 3 } as const;

/** Lower goes first. */
export function detailRank(candidate: DetailCandidate, focusCatalogRef: number | null): number {
  if (candidate.watched) return DETAIL_RANK.watched;
  if (candidate.ordered) return DETAIL_RANK.ordered;
  if (focusCatalogRef !== null && candidate.catalogRef === focusCatalogRef) return DETAIL_RANK.focus;
  return DETAIL_RANK.rest;
}

/** The candidates in fetch order for this focus (stable: equal ranks keep their given order). */
export function orderDetails(candidates: readonly DetailCandidate[], focusCatalogRef: number | null): DetailCandidate[] {
  return candidates
    .map((candidate, index) => ({ candidate, index, rank: detailRank(candidate, focusCatalogRef) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.candidate);
}

export interface DetailQueue {
  /** The next product to fetch, or undefined when none is left; products no longer needing one are skipped. */
  next(): number | undefined;
  /** Products skipped because their detail was stored meanwhile. */
  readonly skipped: number;
}

export function createDetailQueue(
  candidates: readonly DetailCandidate[],
  deps: { readonly focus: () => number | null; readonly stillNeeded: (productRef: number) => boolean; readonly onSkip?: () => void },
): DetailQueue {
  let remaining = [...candidates];
  let skipped = 0;
  const take = (): DetailCandidate | undefined => {
    const focus = deps.focus();
    let best = -1;
    let bestRank = Number.POSITIVE_INFINITY;
    remaining.forEach((candidate, index) => {
      const rank = detailRank(candidate, focus);
      if (rank < bestRank) {
        best = index;
        bestRank = rank;
      }
    });
    const picked = remaining[best];
    remaining = remaining.filter((_, index) => index !== best);
    return picked;
  };
  return {
    next() {
      for (let picked = take(); picked !== undefined; picked = take()) {
        if (deps.stillNeeded(picked.productRef)) return picked.productRef;
        skipped += 1;
        deps.onSkip?.();
      }
      return undefined;
    },
    get skipped() {
      return skipped;
    },
  };
}
